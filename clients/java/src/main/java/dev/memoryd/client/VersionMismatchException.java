package dev.memoryd.client;

/** ABORTED (VERSION_MISMATCH): expected_version is not the memory's current version; read it again and retry. */
public class VersionMismatchException extends AbortedException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public VersionMismatchException(Details details) {
    super(details);
  }
}
