package dev.memoryd.client;

/**
 * One bad request field, named as the request spells it ({@code memory.content},
 * {@code requests[2].memory.scope}), with the server's description of what is wrong.
 */
public record FieldViolation(String field, String description) implements java.io.Serializable {}
