package dev.memoryd.client;

/** DEADLINE_EXCEEDED: the call's deadline passed before an answer came (reason "" when the client's own deadline passed). */
public class DeadlineExceededException extends TransientException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public DeadlineExceededException(Details details) {
    super(details);
  }
}
