package dev.memoryd.client;

/** RESOURCE_EXHAUSTED (WRITE_BACKLOG_FULL): the journal backlog is full and the write was not journaled. */
public class WriteBacklogFullException extends ResourceExhaustedException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public WriteBacklogFullException(Details details) {
    super(details);
  }
}
