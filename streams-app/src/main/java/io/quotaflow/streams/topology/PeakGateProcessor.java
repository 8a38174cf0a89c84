package io.quotaflow.streams.topology;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.BroadcastKind;
import io.quotaflow.schemas.avro.internal.ConfigBroadcast;
import io.quotaflow.streams.engine.memory.MemorySample;
import io.quotaflow.streams.engine.memory.PeakGate;
import io.quotaflow.streams.engine.memory.PeakGateConfig;
import io.quotaflow.streams.engine.memory.TaskGateState;
import io.quotaflow.streams.engine.memory.TaskMemorySpec;
import io.quotaflow.streams.engine.memory.TaskUsageStats;
import io.quotaflow.streams.engine.memory.UsageRecorder;
import java.time.Duration;
import java.util.Optional;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;

/**
 * The memory peak gate of every node of the partition (DESIGN §4): samples, specs, node statuses,
 * the broadcast cluster config and the enforcers' reflex freezes in; freeze decisions and each
 * node's gate table out. A sample moves its node's gate, which
 * may freeze the task, thaw the head of the queue or renew a waiting task's lease; its usage is
 * totalled and, on its GONE sample, sent re-keyed by operation to teach that operation's profile.
 * A spec tells the gate a task's normal, peak, interactivity and operation; a node status its
 * memory (BUDGET's limit); a cluster config its settings, at once (to OFF thaws every waiting task).
 * A {@code REFLEX_FROZEN} enforcement result is an input like a sample: the gate adopts the freeze
 * (the task waits from the reflex's time) or overrules it with a THAW. After every change the
 * node's gate table goes to {@code gate-tables} when it is worth it ({@link GateStores#save}).
 *
 * <p>One processor for the five inputs, because a node's gate is one object in memory. It sits
 * after the CPU processor on the four sources they share, which has updated the node status and
 * config stores this one reads; every record was checked before either ({@link InputCheck}: a
 * rejected record never arrives), and results come from their own check, which lets through only
 * the reflex's freezes.
 *
 * <p>A gate runs on its node's own samples' time, so its decisions do not depend on which other
 * nodes share the partition; specs and configs act at the gate's time. A stream-time punctuator
 * covers a node that fell silent while others go on: it times out the node's silent tasks and
 * renews the leases of those still waiting.
 */
public final class PeakGateProcessor extends ContextualProcessor<String, Object, String, Object> {

  /** How often, in stream time, the punctuator looks for silent nodes. */
  public static final Duration PUNCTUATE_EVERY = Duration.ofSeconds(1);
  /** A node this far behind its partition's stream time has fallen silent: the punctuator moves its gate on. */
  public static final long SILENT_AFTER_MS = 2 * PUNCTUATE_EVERY.toMillis();

  private final Topics topics;
  private final TopologyProbe probe;
  private GateStores stores;
  private long nextUsageSweepTsMs = Long.MIN_VALUE;

  PeakGateProcessor(Topics topics, TopologyProbe probe) {
    this.topics = topics;
    this.probe = probe;
  }

  @Override
  public void init(ProcessorContext<String, Object> context) {
    super.init(context);
    stores = new GateStores(context, probe); // a task opened anew reads its gates from the stores again
    context.schedule(PUNCTUATE_EVERY, PunctuationType.STREAM_TIME, this::advanceSilentNodes);
  }

  @Override
  public void process(Record<String, Object> record) {
    String topic = context().recordMetadata().map(RecordMetadata::topic).orElse("");
    if (topic.equals(topics.samples().name())) {
      onSample(record, (CgroupSample) record.value());
    } else if (topic.equals(topics.taskSpecs().name())) {
      onSpec(record.key(), (TaskSpec) record.value(), record.timestamp());
    } else if (topic.equals(topics.nodes().name())) {
      onNodeStatus(record.key(), (NodeStatus) record.value(), record.timestamp());
    } else if (topic.equals(topics.configBroadcast().name())) {
      onConfig((ConfigBroadcast) record.value(), record.timestamp());
    } else if (topic.equals(topics.enforcementResults().name())) {
      onReflexFreeze((EnforcementResult) record.value(), record.timestamp());
    } else {
      throw new IllegalStateException("the peak gate does not read topic '" + topic + "'");
    }
  }

  private void onSample(Record<String, Object> record, CgroupSample sample) {
    MemorySample memory = GateRecords.sample(sample);
    NodeGate node = stores.load(sample.getNode());
    PeakGate gate = node.gate();
    Optional<TaskMemorySpec> spec = gate.spec(sample.getTask());
    stores.publish(gate.onSample(memory), record.timestamp());
    recordUsage(node, memory, spec.map(TaskMemorySpec::operation).orElse(""), gate.config().taskIdleTimeoutMs(),
        record.timestamp());
    stores.save(node.sampled(record.timestamp()), record.timestamp()); // the task's record, with its totals
  }

  private void onSpec(String key, TaskSpec spec, long timestampMs) {
    TaskKey task = RecordChecks.taskKey(key);
    NodeGate node = stores.load(task.node());
    PeakGate gate = node.gate();
    stores.publish(spec == null
        ? gate.onSpecRemoved(task.task(), node.nowMs())
        : gate.onSpec(stores.spec(spec), node.nowMs()), timestampMs);
    stores.save(node, timestampMs);
  }

  private void onNodeStatus(String nodeId, NodeStatus status, long timestampMs) {
    if (stores.gates.get(nodeId) == null) {
      return; // a gate made later starts from the status stored by then
    }
    NodeGate node = stores.load(nodeId);
    reconfigure(node, GateRecords.config(stores.cluster(), status), timestampMs);
  }

  private void onConfig(ConfigBroadcast config, long timestampMs) {
    if (config == null || config.getKind() == BroadcastKind.MEMORY_PROFILE) {
      stores.profilesChanged(); // the config applier has stored it; the gates look it up afresh from now on
      return;
    }
    if (config.getKind() != BroadcastKind.CLUSTER_CONFIG) {
      return;
    }
    ClusterConfig cluster = stores.cluster(); // already updated by the config applier
    for (String nodeId : stores.nodes()) {
      reconfigure(stores.load(nodeId), GateRecords.config(cluster, stores.node(nodeId)), timestampMs);
    }
  }

  private void reconfigure(NodeGate node, PeakGateConfig config, long timestampMs) {
    if (config.equals(node.gate().config())) {
      return; // the periodic node refresh, or a cluster change that leaves gating alone
    }
    stores.publish(node.gate().onConfig(config, node.nowMs()), timestampMs);
    stores.save(node, timestampMs);
  }

  /**
   * The enforcer of the node froze the task by reflex (only such results pass the check). Its ts_ms
   * is the node's own clock, like a sample's, so the gate runs on it. Its record time is the
   * enforcer's (results are not appended with the broker's time as samples are), so it is not
   * paired with the gate's time for the silent-node punctuator: only samples are. A result without
   * a reading (an enforcer older than read_memory_bytes) says nothing new about the task's usage:
   * the gate judges it by its last sample.
   */
  private void onReflexFreeze(EnforcementResult result, long timestampMs) {
    NodeGate node = stores.load(result.getNode());
    PeakGate gate = node.gate();
    long usageBytes = result.getReadMemoryBytes() != null
        ? result.getReadMemoryBytes() : gate.task(result.getTask()).map(TaskGateState::usageBytes).orElse(0L);
    stores.publish(gate.onReflexFreeze(result.getTask(), result.getTsMs(), usageBytes), timestampMs);
    stores.save(node, timestampMs);
  }

  /** Totals the task's usage; a finished run of a known operation goes to the profile learner. */
  private void recordUsage(NodeGate node, MemorySample memory, String operation, long idleTimeoutMs,
      long timestampMs) {
    NodeUsage usage = node.usage(); // written with the task's record by the save that follows
    TaskUsageStats stored = usage.get(memory.task());
    // A run whose GONE never came ended at its idle timeout: it is no part of the run that starts now.
    UsageRecorder.TaskStep step = UsageRecorder.step(stored, memory, operation, idleTimeoutMs);
    if (step.totals() == null) {
      if (stored != null) {
        usage.delete(memory.task());
      }
    } else {
      usage.put(memory.task(), step.totals());
    }
    step.finished().ifPresent(f -> stores.forwardFinished(f.operation(),
        GateRecords.finished(node.gate().node(), memory.task(), memory.tsMs(), f), timestampMs));
    sweepIdleLegacyUsage(memory.tsMs(), idleTimeoutMs);
  }

  /**
   * Drops the old store's totals of tasks that went silent without a GONE, as sample time passes. A task's totals
   * in its record go when the gate ends its run (GONE or the idle timeout, which the punctuator applies to silent
   * nodes too).
   */
  private void sweepIdleLegacyUsage(long nowTsMs, long idleTimeoutMs) {
    if (nowTsMs < nextUsageSweepTsMs) {
      return;
    }
    nextUsageSweepTsMs = nowTsMs + Math.max(1_000, idleTimeoutMs / 2);
    stores.sweepIdleLegacyUsage(nowTsMs, idleTimeoutMs);
  }

  /**
   * Moves on the gates of nodes that sent nothing for a while as the partition's stream time passes.
   * Record timestamps (broker or producer clocks) and a node's ts_ms (its collector's clock) may
   * differ, so a node's gate moves by the record time elapsed since its clock last moved. The clock is the
   * loaded gate's: a node record alone may hold an older one ({@link GateStores}).
   */
  private void advanceSilentNodes(long partitionTimeMs) {
    for (String nodeId : stores.nodes()) {
      NodeGate node = stores.load(nodeId);
      long silentMs = partitionTimeMs - node.clockRecordTsMs();
      if (silentMs < SILENT_AFTER_MS || !node.gate().hasLiveTasks()) {
        continue;
      }
      long nodeTimeMs = node.nowMs() + silentMs;
      stores.publish(node.gate().advance(nodeTimeMs), partitionTimeMs);
      stores.save(node.advancedTo(partitionTimeMs), partitionTimeMs);
    }
  }
}
