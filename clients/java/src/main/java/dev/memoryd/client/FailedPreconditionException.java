package dev.memoryd.client;

/** FAILED_PRECONDITION: the server is in a state that refuses the call. */
public class FailedPreconditionException extends MemorydException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public FailedPreconditionException(Details details) {
    super(details);
  }
}
