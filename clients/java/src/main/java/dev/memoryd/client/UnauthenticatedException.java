package dev.memoryd.client;

/** UNAUTHENTICATED: no valid credentials were sent. Also the class of reason UNAUTHENTICATED. */
public class UnauthenticatedException extends MemorydException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public UnauthenticatedException(Details details) {
    super(details);
  }
}
