package dev.memoryd.client;

/** CANCELLED: the call was cancelled before it finished. */
public class CancelledException extends TransientException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public CancelledException(Details details) {
    super(details);
  }
}
