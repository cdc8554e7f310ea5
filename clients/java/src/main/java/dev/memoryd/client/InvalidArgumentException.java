package dev.memoryd.client;

/** INVALID_ARGUMENT (or OUT_OF_RANGE): the request was rejected and nothing was written; {@link #fieldViolations()} names each bad field. Also the class of reason INVALID_ARGUMENT. */
public class InvalidArgumentException extends MemorydException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public InvalidArgumentException(Details details) {
    super(details);
  }
}
