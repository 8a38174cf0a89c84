package io.quotaflow.streams.api;

import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.internal.GateConfigRecord;
import io.quotaflow.schemas.avro.internal.GateRoleRecord;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.PeakGateStateRecord;
import io.quotaflow.streams.topology.LiveStores;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code GET /nodes/{node}}: what the node offers (its collector's {@code NodeStatus}) and its memory
 * peak gate (DESIGN §4): the tasks holding a peak slot and the wait queue, head first.
 *
 * @param memoryTotalBytes from the node's status, else the total the gate last applied; null when neither is known
 * @param cpus null (as the other status fields) until the node's collector has reported
 * @param gate null while the node's gate knows no task
 */
record NodeView(
    String node,
    Long memoryTotalBytes,
    Integer cpus,
    Integer threadsPerCore,
    Integer cgroupVersion,
    Long statusTsMs,
    Gate gate,
    List<Holder> holders,
    List<Waiting> waitQueue) {

  /**
   * The gate's settings in force on the node and its clock.
   *
   * @param streamTimeMs the newest time the gate has seen (stream time, epoch ms)
   * @param tasks tasks the gate knows, live or not
   */
  record Gate(String mode, int maxConcurrentPeaks, double peakThresholdRatio, double peakReleaseRatio,
      long memoryHeadroomBytes, long streamTimeMs, int tasks) {}

  /** A task holding a peak slot (in BUDGET mode, a share of the budget). */
  record Holder(String task, boolean interactive, long usageBytes, long maxUsageBytes) {}

  /**
   * A task the gate froze, waiting for a slot.
   *
   * @param position 0 = head: thawed first when a slot frees
   */
  record Waiting(int position, String task, long waitingSinceMs, long usageBytes) {}

  /** Null when neither store knows the node. */
  static NodeView of(String node, NodeStatus status, LiveStores.GateView gate) {
    if (status == null && gate == null) {
      return null;
    }
    List<Holder> holders = new ArrayList<>();
    List<Waiting> queue = new ArrayList<>();
    Gate gateView = null;
    Long memoryTotal = status != null ? Long.valueOf(status.getMemoryTotalBytes()) : null;
    if (gate != null) {
      GateConfigRecord c = gate.node().getConfig();
      gateView = new Gate(c.getMode(), c.getMaxConcurrentPeaks(), c.getPeakThresholdRatio(), c.getPeakReleaseRatio(),
          c.getMemoryHeadroomBytes(), gate.streamTimeMs(), gate.tasks().size());
      if (memoryTotal == null && c.getMemoryTotalBytes() > 0) {
        memoryTotal = c.getMemoryTotalBytes();
      }
      Map<String, GateTaskRecord> byTask = new HashMap<>();
      for (GateTaskRecord t : gate.tasks()) {
        byTask.put(t.getTask(), t);
        if (t.getRole() == GateRoleRecord.HOLDING) {
          holders.add(new Holder(t.getTask(), t.getInteractive(), t.getUsageBytes(), t.getMaxUsageBytes()));
        }
      }
      List<String> order = LiveStores.waitQueue(gate);
      for (int position = 0; position < order.size(); position++) {
        GateTaskRecord t = byTask.get(order.get(position));
        queue.add(new Waiting(position, t.getTask(), t.getWaitingSinceMs(), t.getUsageBytes()));
      }
    }
    return new NodeView(node, memoryTotal,
        status == null ? null : status.getCpus(),
        status == null ? null : status.getThreadsPerCore(),
        status == null ? null : status.getCgroupVersion(),
        status == null ? null : status.getTsMs(),
        gateView, holders, queue);
  }
}
