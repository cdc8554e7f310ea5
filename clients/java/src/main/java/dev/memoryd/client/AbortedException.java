package dev.memoryd.client;

/** ABORTED: the call conflicted with a concurrent change. */
public class AbortedException extends MemorydException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public AbortedException(Details details) {
    super(details);
  }
}
