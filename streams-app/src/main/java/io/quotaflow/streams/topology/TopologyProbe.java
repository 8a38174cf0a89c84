package io.quotaflow.streams.topology;

import io.quotaflow.streams.engine.memory.GateStatus;
import io.quotaflow.streams.engine.pools.PoolAttributes;
import java.util.List;

/**
 * What the processors tell the outside world as they work: the runner turns it into metrics and
 * the staleness of {@code /health}; tests and {@code simulate} pass {@link #NONE}. Called from
 * stream threads, so implementations must be thread-safe and cheap.
 */
public interface TopologyProbe {

  TopologyProbe NONE = new TopologyProbe() {};

  /** A sample passed its checks and reached the monitor; {@code tsMs} is its sample time. */
  default void sampleHandled(long tsMs) {}

  /** A sample older than its task's last tick was dropped. */
  default void lateSample() {}

  /** A CPU decision (or a tombstone, {@code withdrawn}) was published. */
  default void decisionPublished(boolean withdrawn) {}

  /** A freeze decision was published; {@code action} is FREEZE or THAW. */
  default void freezeDecisionPublished(String action) {}

  /** A node's peak gate changed: its holders, its queue and how long the queue's head has waited. */
  default void gateStatus(String node, GateStatus status) {}

  /**
   * The pool processor published these pools' states for a period: the pools in force, all of them.
   * Empty when this instance stops running the pool processor (its partition moved or the app stops).
   */
  default void poolStates(List<PoolAttributes> states) {}
}
