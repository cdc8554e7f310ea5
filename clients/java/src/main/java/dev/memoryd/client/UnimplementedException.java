package dev.memoryd.client;

/** UNIMPLEMENTED: the server does not offer this RPC (yet). */
public class UnimplementedException extends MemorydException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public UnimplementedException(Details details) {
    super(details);
  }
}
