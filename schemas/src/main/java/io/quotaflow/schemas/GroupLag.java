package io.quotaflow.schemas;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * How far a consumer group (a streams app's) trails the committed ends of some topics, and a wait
 * until it trails nothing: what a benchmark waits on before it feeds more or reads what the app
 * wrote, never a sleep of a guessed length. Tests wait with it too (test-harness KafkaWait).
 */
public final class GroupLag {

  private static final long POLL_MS = 50;

  private GroupLag() {}

  /**
   * Partitions of {@code topics} the group has not finished, with the records left: its committed offset is below
   * the last stable offset, or a transaction on the partition is not finished yet (the log end is past the last
   * stable offset).
   */
  public static Map<TopicPartition, Long> of(Admin admin, String groupId, Collection<String> topics) {
    try {
      Map<TopicPartition, OffsetSpec> latest = admin.describeTopics(topics).allTopicNames().get().values().stream()
          .flatMap(d -> d.partitions().stream().map(p -> new TopicPartition(d.name(), p.partition())))
          .collect(Collectors.toMap(tp -> tp, tp -> OffsetSpec.latest()));
      // The group's offsets before the ends: an app commits what it consumed and what that produced in one
      // transaction, so ends read after it show every record its consumption so far produced (a learned profile
      // on its way back, say). Read the other way round, a commit in between looked caught up on its own output.
      Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(groupId).partitionsToOffsetAndMetadata().get();
      // An app under exactly-once commits past its transactions' markers, never into an open one: its position is
      // judged against the last stable offset.
      Map<TopicPartition, Long> stableEnds = ends(admin, latest, IsolationLevel.READ_COMMITTED);
      // But a transaction's markers reach its partitions one by one, and the group's offsets are one of them: the
      // offsets can show the input consumed while an output partition's stable end still stops short of what that
      // input produced. Such a partition's log end is past its stable end (read after it, so never short of it).
      Map<TopicPartition, Long> logEnds = ends(admin, latest, IsolationLevel.READ_UNCOMMITTED);
      Map<TopicPartition, Long> lagging = new HashMap<>();
      stableEnds.forEach((tp, stableEnd) -> {
        OffsetAndMetadata at = committed.get(tp);
        long position = at == null ? 0 : at.offset();
        long logEnd = logEnds.getOrDefault(tp, stableEnd);
        if ((stableEnd > 0 && position < stableEnd) || logEnd > stableEnd) {
          lagging.put(tp, Math.max(1, logEnd - position));
        }
      });
      return lagging;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while reading the lag of " + groupId, e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot read the lag of consumer group " + groupId + ": " + e.getCause(), e.getCause());
    }
  }

  private static Map<TopicPartition, Long> ends(Admin admin, Map<TopicPartition, OffsetSpec> latest, IsolationLevel isolation)
      throws InterruptedException, ExecutionException {
    Map<TopicPartition, Long> ends = new HashMap<>();
    admin.listOffsets(latest, new ListOffsetsOptions(isolation)).all().get().forEach((tp, info) -> ends.put(tp, info.offset()));
    return ends;
  }

  /** Returns once the group trails nothing on {@code topics}; throws, naming the lag, after {@code timeout}. */
  public static void awaitCaughtUp(Admin admin, String groupId, Collection<String> topics, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<TopicPartition, Long> lagging = of(admin, groupId, topics);
    while (!lagging.isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("consumer group " + groupId + " did not catch up within " + timeout.toSeconds()
            + " s; lagging: " + lagging);
      }
      Thread.sleep(POLL_MS);
      lagging = of(admin, groupId, topics);
    }
  }
}
