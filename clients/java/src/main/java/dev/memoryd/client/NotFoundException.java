package dev.memoryd.client;

/** NOT_FOUND: something the request names does not exist; {@link #resourceName()} names it when the server says. */
public class NotFoundException extends MemorydException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public NotFoundException(Details details) {
    super(details);
  }
}
