package io.quotaflow.streams.topology;

/**
 * One input of {@link CpuProcessor}: what it does with a record of its topic, on the stores and the
 * decision maker the processor's inputs share.
 */
abstract class CpuInput<V> {

  protected final TaskStores stores;
  protected final CpuDecisionMaker decisions;
  protected final TopologyProbe probe;

  CpuInput(TaskStores stores, CpuDecisionMaker decisions, TopologyProbe probe) {
    this.stores = stores;
    this.decisions = decisions;
    this.probe = probe;
  }

  /** Takes one record, checked before it came here ({@link InputCheck}); {@code value} null is a tombstone. */
  abstract void process(String key, V value, long timestampMs);
}
