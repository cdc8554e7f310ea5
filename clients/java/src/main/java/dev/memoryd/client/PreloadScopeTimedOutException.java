package dev.memoryd.client;

/** DEADLINE_EXCEEDED (PRELOAD_SCOPE_TIMED_OUT): a Preload scope was not searched before the deadline came near (inside a ScopeHits event). */
public class PreloadScopeTimedOutException extends DeadlineExceededException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public PreloadScopeTimedOutException(Details details) {
    super(details);
  }
}
