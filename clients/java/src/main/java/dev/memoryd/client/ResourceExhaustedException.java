package dev.memoryd.client;

/** RESOURCE_EXHAUSTED: the server is over a limit; wait {@link #retryAfter()} before trying again. */
public class ResourceExhaustedException extends TransientException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public ResourceExhaustedException(Details details) {
    super(details);
  }
}
