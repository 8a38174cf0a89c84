package io.quotaflow.cli.replay;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.streams.topology.PeakGateProcessor;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which nodes' peak gates a replay may move on at other times than the live app did. A gate whose node
 * has sent nothing for {@link PeakGateProcessor#SILENT_AFTER_MS} is moved on by a stream-time
 * punctuator, by the time that has passed in its partition; live that is the node's own partition's
 * stream time, in a replay (one partition) every partition's. So when another partition's records run
 * on while a node's partition is silent, the replay moves the node's gate clock at another moment and
 * by another amount, and its later freeze decisions may carry other times. Found from the inputs alone,
 * before anything is replayed: the punctuator can only fire as stream time crosses a second.
 */
final class SilentNodes {

  /** Beyond this a node's tasks have timed out of its gate (task_idle_timeout_ms, 60 s by default, with room): nothing moves. */
  private static final long GATE_FORGETS_AFTER_MS = 120_000;

  private SilentNodes() {}

  static Set<String> movedByOtherPartitions(Iterable<InputRecord> merged, int partitions) {
    long[] partitionTimeMs = new long[partitions];
    Arrays.fill(partitionTimeMs, Long.MIN_VALUE);
    Map<String, Long> lastSampleMs = new HashMap<>();
    Map<String, Integer> partitionOfNode = new HashMap<>();
    Set<String> moved = new TreeSet<>();
    // Flagged at time t unless the node's own partition also has a record at t: then live its punctuation fires at the same time.
    Map<String, Long> pending = new HashMap<>();
    long nextCheckMs = Long.MIN_VALUE;
    for (InputRecord r : merged) {
      long t = r.timestampMs();
      pending.entrySet().removeIf(p -> {
        if (p.getValue() < t) {
          moved.add(p.getKey());
          return true;
        }
        return false;
      });
      if (r.kind() == InputRecord.Kind.CLUSTER || r.kind() == InputRecord.Kind.POOL) {
        // broadcast: a copy reaches every partition with this time
        for (int p = 0; p < partitions; p++) {
          partitionTimeMs[p] = Math.max(partitionTimeMs[p], t);
        }
        continue;
      }
      int partition = r.partition();
      if (partition < 0 || partition >= partitions) {
        continue;
      }
      pending.keySet().removeIf(node -> partitionOfNode.get(node) == partition);
      if (t >= nextCheckMs) {
        for (Map.Entry<String, Long> node : lastSampleMs.entrySet()) {
          int own = partitionOfNode.get(node.getKey());
          long silentMs = t - node.getValue();
          if (own != partition && partitionTimeMs[own] < t && silentMs >= PeakGateProcessor.SILENT_AFTER_MS
              && silentMs <= GATE_FORGETS_AFTER_MS && !moved.contains(node.getKey())) {
            pending.putIfAbsent(node.getKey(), t);
          }
        }
        nextCheckMs = t + PeakGateProcessor.PUNCTUATE_EVERY.toMillis();
      }
      partitionTimeMs[partition] = Math.max(partitionTimeMs[partition], t);
      if (r.kind() == InputRecord.Kind.SAMPLE && r.key() != null) {
        String node = TaskKey.nodeOf(r.key());
        lastSampleMs.put(node, t);
        partitionOfNode.put(node, partition);
      }
    }
    moved.addAll(pending.keySet());
    return moved;
  }
}
