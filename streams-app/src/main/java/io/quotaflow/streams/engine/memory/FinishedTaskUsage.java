package io.quotaflow.streams.engine.memory;

import java.util.Objects;

/**
 * What one finished task of an operation used, the input of {@link ProfileBook}.
 *
 * @param meanBytes mean usage over the samples in which the task ran
 * @param maxBytes highest usage seen
 */
public record FinishedTaskUsage(String operation, long meanBytes, long maxBytes) {

  public FinishedTaskUsage {
    Objects.requireNonNull(operation, "operation");
    if (meanBytes <= 0 || maxBytes < meanBytes) {
      throw new IllegalArgumentException("need 0 < mean <= max, was " + meanBytes + ", " + maxBytes);
    }
  }
}
