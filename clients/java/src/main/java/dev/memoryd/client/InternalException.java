package dev.memoryd.client;

/** INTERNAL (also UNKNOWN and DATA_LOSS): the server failed unexpectedly. Also the class of reason INTERNAL. */
public class InternalException extends MemorydException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public InternalException(Details details) {
    super(details);
  }

  /** The incident id the server's log names ("" if none was sent). */
  public String incident() {
    return metadata().getOrDefault("incident", "");
  }
}
