package dev.memoryd.client;

/** UNAVAILABLE (EMBEDDING_UNAVAILABLE): the embedding provider could not embed the text; retry. */
public class EmbeddingUnavailableException extends UnavailableException {
  private static final long serialVersionUID = 1L;

  /** An error with these details; normally built by {@link MemorydException#from}. */
  public EmbeddingUnavailableException(Details details) {
    super(details);
  }
}
