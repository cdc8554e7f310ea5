package dev.memoryd.client;

/** NOT_FOUND (MEMORY_NOT_FOUND): no memory with that id in that scope (a memory of another scope looks the same). */
public class MemoryNotFoundException extends NotFoundException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public MemoryNotFoundException(Details details) {
    super(details);
  }

  /** The id of the missing memory, as the server named it ("" if it did not). */
  public String memoryId() {
    return resourceName();
  }
}
