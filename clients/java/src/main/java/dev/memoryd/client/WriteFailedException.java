package dev.memoryd.client;

/** UNAVAILABLE (WRITE_FAILED): a journaled write could not be applied after the server's retries; none of it was. */
public class WriteFailedException extends UnavailableException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public WriteFailedException(Details details) {
    super(details);
  }
}
