package io.quotaflow.streams.topology;

import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CPU decisions of a node partition: samples, task specs, node statuses and broadcast configs in
 * ({@link SampleInput}, {@link SpecInput}, {@link NodeStatusInput}, {@link ConfigApplier}), CPU
 * decisions and the partition's pool sums out.
 *
 * <p>One processor for the four inputs, so that they share one {@link TaskStores}: it is then the only
 * writer of the node status, config and pool stores of its task, and keeps what it read of them in
 * memory instead of asking its stores on every sample (cluster config, node status, cap ratio,
 * last pool report, pool sums: five store reads per sample, ~7 % of the stream threads' CPU in
 * {@code bench cpu}). A task opened anew (a restart, a rebalance, a task revived after an aborted
 * transaction) inits the processor again, which starts from the stores.
 */
final class CpuProcessor extends ContextualProcessor<String, Object, String, Object> {

  private static final Logger LOG = LoggerFactory.getLogger(CpuProcessor.class);

  private final Topics topics;
  private final TopologyProbe probe;
  private final CpuDecisionMaker decisions = new CpuDecisionMaker();
  private SampleInput samples;
  private SpecInput specs;
  private NodeStatusInput nodes;
  private ConfigApplier configs;

  CpuProcessor(Topics topics, TopologyProbe probe) {
    this.topics = topics;
    this.probe = probe;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    super.init(context);
    // Before either processor of the task reads a task record: the peak gate reads its gates when records come.
    int moved = LegacyTaskStores.moveInto(context);
    if (moved > 0) {
      LOG.info("Task {}: moved {} task records of an older version from {} and {} into {}", context.taskId(), moved,
          Names.LEGACY_TASK_CPU_STORE, Names.LEGACY_GATE_TASKS_STORE, Names.TASK_STORE);
    }
    TaskStores stores = new TaskStores(context, probe);
    samples = new SampleInput(stores, decisions, probe);
    specs = new SpecInput(stores, decisions, probe);
    nodes = new NodeStatusInput(stores, decisions, probe);
    configs = new ConfigApplier(stores, decisions, probe);
  }

  @Override
  public void process(Record<String, Object> record) {
    String topic = context().recordMetadata().map(RecordMetadata::topic).orElse("");
    if (topic.equals(topics.samples().name())) {
      samples.process(record.key(), (CgroupSample) record.value(), record.timestamp());
    } else if (topic.equals(topics.taskSpecs().name())) {
      specs.process(record.key(), (TaskSpec) record.value(), record.timestamp());
    } else if (topic.equals(topics.nodes().name())) {
      nodes.process(record.key(), (NodeStatus) record.value(), record.timestamp());
    } else if (topic.equals(topics.configBroadcast().name())) {
      configs.process(record.key(), (ConfigBroadcast) record.value(), record.timestamp());
    } else {
      throw new IllegalStateException("the CPU processor does not read topic '" + topic + "'");
    }
  }
}
