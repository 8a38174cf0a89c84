package io.quotaflow.streams.topology;

import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/** What every processor of the CPU sub-topology shares: the stores, the decision maker, the probe. */
abstract class TaskStateProcessor<V> extends ContextualProcessor<String, V, String, Object> {

  /** Partitions of the node-keyed topics. */
  protected final int partitions;
  protected final TopologyProbe probe;
  protected final CpuDecisionMaker decisions = new CpuDecisionMaker();
  protected TaskStores stores;

  TaskStateProcessor(int partitions, TopologyProbe probe) {
    this.partitions = partitions;
    this.probe = probe;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    super.init(context);
    stores = new TaskStores(context, probe);
  }

  /** Before the record changes anything: reports the pool sums of a period it closes (DESIGN §3). */
  protected void beforeEvent(long timestampMs) {
    stores.beforeEvent(timestampMs, context().recordMetadata().map(m -> m.partition()).orElse(0));
  }
}
