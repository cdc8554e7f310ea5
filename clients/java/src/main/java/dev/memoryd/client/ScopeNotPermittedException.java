package dev.memoryd.client;

/** PERMISSION_DENIED (SCOPE_NOT_PERMITTED): the caller may not act in the scope it named. */
public class ScopeNotPermittedException extends PermissionDeniedException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public ScopeNotPermittedException(Details details) {
    super(details);
  }
}
