package dev.memoryd.client;

/** PERMISSION_DENIED: the credentials may not do this. */
public class PermissionDeniedException extends MemorydException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public PermissionDeniedException(Details details) {
    super(details);
  }
}
