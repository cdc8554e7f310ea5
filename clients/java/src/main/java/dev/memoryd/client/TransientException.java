package dev.memoryd.client;

/** A failure that may go away if the call is repeated later: UNAVAILABLE, DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, CANCELLED. */
public class TransientException extends MemorydException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public TransientException(Details details) {
    super(details);
  }
}
