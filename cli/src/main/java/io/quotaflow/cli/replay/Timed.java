package io.quotaflow.cli.replay;

/** A keyed record and its record timestamp: a decision as recorded or replayed. */
public record Timed<V>(String key, long timestampMs, V value) {}
