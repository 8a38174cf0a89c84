package io.quotaflow.cli.replay;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The order the live app processed the recorded inputs in: each topic-partition in offset order,
 * and across them always the one whose next record has the smallest timestamp — Kafka Streams'
 * own merge with {@code max.task.idle.ms} 0 or more and every partition's data at hand, which a
 * replay always has. Equal timestamps go configs first (cluster, pools, nodes, specs, samples),
 * then by partition, so the order is a function of the records alone.
 */
public final class InputMerge {

  private InputMerge() {}

  private static final class Cursor {
    final List<InputRecord> queue;
    int next;

    Cursor(List<InputRecord> queue) {
      this.queue = queue;
    }

    InputRecord head() {
      return queue.get(next);
    }
  }

  private static final Comparator<Cursor> BY_HEAD = Comparator.<Cursor>comparingLong(c -> c.head().timestampMs())
      .thenComparing(c -> c.head().kind())
      .thenComparingInt(c -> c.head().partition());

  public static List<InputRecord> merge(List<List<InputRecord>> queues) {
    PriorityQueue<Cursor> heads = new PriorityQueue<>(BY_HEAD);
    int total = 0;
    for (List<InputRecord> queue : queues) {
      if (!queue.isEmpty()) {
        heads.add(new Cursor(queue));
        total += queue.size();
      }
    }
    List<InputRecord> merged = new ArrayList<>(total);
    while (!heads.isEmpty()) {
      Cursor cursor = heads.poll();
      merged.add(cursor.head());
      cursor.next++;
      if (cursor.next < cursor.queue.size()) {
        heads.add(cursor);
      }
    }
    return merged;
  }
}
