package dev.memoryd.client;

/** UNAVAILABLE: the server could not be reached, even after the retry policy's attempts. */
public class UnavailableException extends TransientException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public UnavailableException(Details details) {
    super(details);
  }
}
