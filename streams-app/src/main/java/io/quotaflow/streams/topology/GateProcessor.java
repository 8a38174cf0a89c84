package io.quotaflow.streams.topology;

import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;

/**
 * What every peak-gate processor shares: the gate stores. Each is attached to its source after the
 * CPU processor of the same source, which has already checked the record (a rejected record never
 * reaches the gate) and updated the node status and config stores the gate reads.
 */
abstract class GateProcessor<V> extends ContextualProcessor<String, V, String, Object> {

  protected final TopologyProbe probe;
  protected GateStores stores;

  GateProcessor(TopologyProbe probe) {
    this.probe = probe;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    super.init(context);
    stores = new GateStores(context, probe);
  }
}
