package dev.memoryd.client;

/** INVALID_ARGUMENT (MESSAGE_TOO_LARGE): the request is larger than the server accepts; nothing was read. */
public class MessageTooLargeException extends InvalidArgumentException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public MessageTooLargeException(Details details) {
    super(details);
  }

  /** The request size the server measured, or -1 if it sent none. */
  public long sizeBytes() {
    return wholeNumber(metadata().get("size_bytes"));
  }

  /** The server's limit (max_message_bytes), or -1 if it sent none. */
  public long limitBytes() {
    return wholeNumber(metadata().get("limit_bytes"));
  }

  private static long wholeNumber(String text) {
    return text != null && text.matches("[0-9]{1,18}") ? Long.parseLong(text) : -1;
  }
}
