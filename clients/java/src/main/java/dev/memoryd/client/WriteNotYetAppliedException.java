package dev.memoryd.client;

/** DEADLINE_EXCEEDED (WRITE_NOT_YET_APPLIED): a read waited for an acknowledged write of its scope until its deadline; retry with a longer deadline. */
public class WriteNotYetAppliedException extends DeadlineExceededException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public WriteNotYetAppliedException(Details details) {
    super(details);
  }
}
