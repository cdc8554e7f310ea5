package dev.memoryd.client;

/** DEADLINE_EXCEEDED (WRITE_IN_FLIGHT, raised by this client): a read waited, until its deadline, for a write of this client into its scope that was still unanswered. */
public class WriteInFlightException extends DeadlineExceededException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public WriteInFlightException(Details details) {
    super(details);
  }
}
