package io.quotaflow.collector;

import io.quotaflow.process.Durations;
import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.MemoryStatRefresh;
import io.quotaflow.schemas.Ids;
import java.time.Duration;

/**
 * How a collector runs, apart from Kafka (client properties and the topic catalogue come with
 * {@link Collector#start}).
 *
 * @param node this node's id: the first part of every key, and the partition it writes to
 * @param period time between two sampling rounds
 * @param nodeStatusPeriod time between two {@code NodeStatus} records (one is sent at start)
 * @param bufferCapacity records kept while the broker is away before the oldest are dropped
 * @param memoryStatEvery {@code memory.stat} (anonymous memory) is read at least every this many
 *     rounds, and in between whenever a group's usage moved by more than 1 % (1: every round)
 * @param opsHost the address {@code /metrics} and {@code /health} are served on
 * @param opsPort their port (0: any free port)
 */
public record CollectorSettings(
    String node,
    CgroupConfig cgroups,
    Duration period,
    Duration nodeStatusPeriod,
    int bufferCapacity,
    int memoryStatEvery,
    String opsHost,
    int opsPort) {

  public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);
  public static final Duration DEFAULT_NODE_STATUS_PERIOD = Duration.ofMinutes(1);
  /**
   * Five minutes of 500 groups at 1 Hz, ~15 MB. Longer is of little use: the streams app rejects a
   * sample whose {@code ts_ms} is more than 5 minutes from its broker append time as clock skew.
   */
  public static final int DEFAULT_BUFFER_CAPACITY = 150_000;
  /**
   * memory.stat is a third of the read cost of a v1 group (docs/cgroups.md). Anonymous memory
   * cannot move much while the usage stands still, so it is re-read when the usage moved by more
   * than {@link #MEMORY_STAT_USAGE_CHANGE}, and otherwise at least every 10 rounds.
   */
  public static final int DEFAULT_MEMORY_STAT_EVERY = 10;
  public static final double MEMORY_STAT_USAGE_CHANGE = 0.01;
  public static final String DEFAULT_OPS_HOST = "0.0.0.0";
  public static final int DEFAULT_OPS_PORT = 9102;
  private static final Duration MIN_PERIOD = Duration.ofMillis(10);

  public CollectorSettings {
    Ids.requireValid("node", node);
    if (cgroups == null) {
      throw new IllegalArgumentException("no cgroup configuration");
    }
    if (period == null || period.compareTo(MIN_PERIOD) < 0) {
      throw new IllegalArgumentException("period must be at least " + Durations.format(MIN_PERIOD) + ", was "
          + (period == null ? "none" : Durations.format(period)));
    }
    if (nodeStatusPeriod == null || nodeStatusPeriod.compareTo(MIN_PERIOD) < 0) {
      throw new IllegalArgumentException("node status period must be at least " + Durations.format(MIN_PERIOD));
    }
    if (bufferCapacity < 1) {
      throw new IllegalArgumentException("buffer must hold at least 1 record, was " + bufferCapacity);
    }
    if (memoryStatEvery < 1) {
      throw new IllegalArgumentException("memory.stat must be read at least every N rounds with N >= 1, was "
          + memoryStatEvery);
    }
    if (opsPort < 0 || opsPort > 65_535) {
      throw new IllegalArgumentException("ops port must be 0..65535, was " + opsPort);
    }
  }

  public static CollectorSettings defaults(String node, CgroupConfig cgroups) {
    return new CollectorSettings(node, cgroups, DEFAULT_PERIOD, DEFAULT_NODE_STATUS_PERIOD,
        DEFAULT_BUFFER_CAPACITY, DEFAULT_MEMORY_STAT_EVERY, DEFAULT_OPS_HOST, DEFAULT_OPS_PORT);
  }

  public CollectorSettings withPeriod(Duration newPeriod) {
    return new CollectorSettings(node, cgroups, newPeriod, nodeStatusPeriod, bufferCapacity, memoryStatEvery, opsHost, opsPort);
  }

  public CollectorSettings withNodeStatusPeriod(Duration newPeriod) {
    return new CollectorSettings(node, cgroups, period, newPeriod, bufferCapacity, memoryStatEvery, opsHost, opsPort);
  }

  public CollectorSettings withBufferCapacity(int capacity) {
    return new CollectorSettings(node, cgroups, period, nodeStatusPeriod, capacity, memoryStatEvery, opsHost, opsPort);
  }

  public CollectorSettings withMemoryStatEvery(int rounds) {
    return new CollectorSettings(node, cgroups, period, nodeStatusPeriod, bufferCapacity, rounds, opsHost, opsPort);
  }

  /** How the readers re-read memory.stat under these settings. */
  public MemoryStatRefresh memoryStatRefresh() {
    return memoryStatEvery == 1 ? MemoryStatRefresh.EVERY_READ
        : new MemoryStatRefresh(memoryStatEvery, MEMORY_STAT_USAGE_CHANGE);
  }

  public CollectorSettings withOps(String host, int port) {
    return new CollectorSettings(node, cgroups, period, nodeStatusPeriod, bufferCapacity, memoryStatEvery, host, port);
  }
}
