package io.quotaflow.streams.engine.memory;

import java.util.List;
import java.util.Objects;

/**
 * A node's gate as the enforcer's reflex needs it between samples (the {@code GateTable} record of the
 * {@code gate-tables} topic): who holds, who waits, whether a new peak would be admitted, and each
 * taking-part task's threshold. A value of {@link PeakGate#table()}.
 *
 * @param tsMs the gate's stream time
 * @param admitsNewPeak COUNT: a free slot and nobody waiting; BUDGET: nobody waiting and no holder or bytes left
 * @param freeSlots COUNT only, else null
 * @param bytesLeft BUDGET only, else null: budget − (holders' expected peaks + the others' usage)
 * @param tasks every live task with a known normal, by task id
 */
public record GateTable(String node, long tsMs, GatingMode mode, List<String> holders, List<String> queue,
    boolean admitsNewPeak, Integer freeSlots, Long bytesLeft, List<Row> tasks) {

  /** Publishing a table whose only change is {@code bytes_left} waits this long after the last one, in stream time. */
  public static final long BYTES_LEFT_REPUBLISH_MS = 1_000;

  /**
   * @param thresholdBytes the task approaches its peak above this usage
   * @param peakBytes the peak the gate expects of it
   * @param admitted whether the gate would let it hold a slot if it approached its peak now
   */
  public record Row(String task, GateRole role, boolean interactive, long thresholdBytes, long peakBytes,
      boolean admitted) {
    public Row {
      Objects.requireNonNull(task, "task");
      Objects.requireNonNull(role, "role");
    }
  }

  public GateTable {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(mode, "mode");
    holders = List.copyOf(holders);
    queue = List.copyOf(queue);
    tasks = List.copyOf(tasks);
  }

  /**
   * Whether this table is worth publishing after {@code last} (null: none published yet). Anything the
   * reflex acts on goes out at once; {@code bytes_left} alone moves with every sample in BUDGET, so a
   * change of it alone goes out at most once per {@link #BYTES_LEFT_REPUBLISH_MS} of stream time.
   */
  public boolean worthPublishingAfter(GateTable last) {
    if (last == null || !sameDecisionsAs(last)) {
      return true;
    }
    return !Objects.equals(bytesLeft, last.bytesLeft) && tsMs - last.tsMs >= BYTES_LEFT_REPUBLISH_MS;
  }

  /** Equal but for the time and the bytes left. */
  public boolean sameDecisionsAs(GateTable other) {
    return node.equals(other.node) && mode == other.mode && holders.equals(other.holders)
        && queue.equals(other.queue) && admitsNewPeak == other.admitsNewPeak
        && Objects.equals(freeSlots, other.freeSlots) && tasks.equals(other.tasks);
  }
}
