package io.quotaflow.streams.engine.memory;

import java.util.List;
import java.util.Objects;

/**
 * Everything a node's gate knows, as a plain value: what a processor writes to its changelogged store and what
 * {@link PeakGate#restore} starts again from.
 *
 * @param streamTimeMs the newest time the gate has seen; {@link Long#MIN_VALUE} before any input
 * @param lateSamples samples dropped because they were older than their task's previous sample
 * @param tasks ordered by task id
 */
public record PeakGateState(
    String node, PeakGateConfig config, long streamTimeMs, long lateSamples, List<TaskGateState> tasks) {

  public PeakGateState {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(config, "config");
    tasks = List.copyOf(tasks);
  }
}
