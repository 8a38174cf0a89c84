package io.quotaflow.streams.engine.memory;

import java.util.Objects;

/**
 * What the job system says about a task's memory (the memory fields of {@code TaskSpec}).
 *
 * @param operation the job the task belongs to: learned profiles are kept per operation
 * @param memoryNormalBytes usual usage; null lets the operation's learned profile decide
 * @param memoryPeakBytes highest expected usage; null lets the learned profile decide
 * @param interactive interactive tasks are never frozen (they still hold a slot)
 */
public record TaskMemorySpec(
    String task, String operation, Long memoryNormalBytes, Long memoryPeakBytes, boolean interactive) {

  public TaskMemorySpec {
    Objects.requireNonNull(task, "task");
    operation = operation == null ? "" : operation;
    if (memoryNormalBytes != null && memoryNormalBytes <= 0) {
      throw new IllegalArgumentException("memory_normal_bytes must be positive, was " + memoryNormalBytes);
    }
    if (memoryPeakBytes != null && memoryPeakBytes <= 0) {
      throw new IllegalArgumentException("memory_peak_bytes must be positive, was " + memoryPeakBytes);
    }
  }

  /** A non-interactive task whose spec names its normal and peak. */
  public static TaskMemorySpec batch(String task, String operation, long normalBytes, long peakBytes) {
    return new TaskMemorySpec(task, operation, normalBytes, peakBytes, false);
  }

  /** A non-interactive task that leaves normal and peak to its operation's learned profile. */
  public static TaskMemorySpec profiled(String task, String operation) {
    return new TaskMemorySpec(task, operation, null, null, false);
  }
}
