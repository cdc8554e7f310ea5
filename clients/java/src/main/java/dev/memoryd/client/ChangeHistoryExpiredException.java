package dev.memoryd.client;

/**
 * OUT_OF_RANGE (CHANGE_HISTORY_EXPIRED): a watch asked to resume after a sequence older than the
 * change history the server keeps, or past its end. Read the scope again ({@link
 * MemorydClient#listAll}) and watch from the {@code started} event.
 */
public class ChangeHistoryExpiredException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public ChangeHistoryExpiredException(Details details) {
    super(details);
  }
}
