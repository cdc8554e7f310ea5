package dev.memoryd.client;

/** NOT_FOUND (UNKNOWN_WRITE_TOKEN): GetWriteStatus does not know the token: another server's, or one whose write finished longer ago than the server's retention. */
public class UnknownWriteTokenException extends NotFoundException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public UnknownWriteTokenException(Details details) {
    super(details);
  }
}
