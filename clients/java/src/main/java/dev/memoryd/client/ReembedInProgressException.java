package dev.memoryd.client;

/** FAILED_PRECONDITION (REEMBED_IN_PROGRESS): a re-embedding to another embedder is running; GetReembedStatus reports it. */
public class ReembedInProgressException extends FailedPreconditionException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public ReembedInProgressException(Details details) {
    super(details);
  }
}
