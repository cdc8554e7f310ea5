package dev.memoryd.client;

/** RESOURCE_EXHAUSTED (RATE_LIMITED): the caller is over its request rate. */
public class RateLimitedException extends ResourceExhaustedException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public RateLimitedException(Details details) {
    super(details);
  }
}
