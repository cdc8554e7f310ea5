package dev.memoryd.client;

/** UNAVAILABLE (SHUTTING_DOWN): the server is shutting down and takes no new writes; retry elsewhere or later. */
public class ShuttingDownException extends UnavailableException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public ShuttingDownException(Details details) {
    super(details);
  }
}
