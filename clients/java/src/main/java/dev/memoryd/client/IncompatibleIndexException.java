package dev.memoryd.client;

/** FAILED_PRECONDITION (INCOMPATIBLE_INDEX): the stored index was built for another embedder or dimension than the server's. */
public class IncompatibleIndexException extends FailedPreconditionException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public IncompatibleIndexException(Details details) {
    super(details);
  }
}
