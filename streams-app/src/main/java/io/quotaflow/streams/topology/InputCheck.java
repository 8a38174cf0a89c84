package io.quotaflow.streams.topology;

import java.util.function.Predicate;
import org.apache.kafka.streams.processor.api.ContextualProcessor;
import org.apache.kafka.streams.processor.api.Record;

/**
 * The checks of one input topic ({@link RecordChecks}), between its source and every processor it
 * feeds. A source feeds two (the CPU processor, then the peak gate), and a processor that refuses a
 * record does not stop the source handing it to the next: when each checked for itself, a sample
 * the CPU processor refused (another node's partition, a key its value disagrees with, a skewed
 * clock) still moved the peak gate, and one both refused was dead-lettered twice. Refused here, a
 * record is dead-lettered once and reaches neither. A topic of which the processors want only some
 * records drops the others here, unchecked.
 */
final class InputCheck<V> extends ContextualProcessor<String, V, String, V> {

  /** Throws {@link RejectedRecordException} (or an invalid id's exception) naming what is wrong with the record. */
  @FunctionalInterface
  interface Check<V> {
    void require(String key, V value, long timestampMs, Integer partition, int partitions);
  }

  private final int partitions;
  private final Predicate<V> wanted;
  private final Check<V> check;

  InputCheck(int partitions, Check<V> check) {
    this(partitions, value -> true, check);
  }

  /** Checks and forwards only the records whose value is {@code wanted}; drops the others. */
  InputCheck(int partitions, Predicate<V> wanted, Check<V> check) {
    this.partitions = partitions;
    this.wanted = wanted;
    this.check = check;
  }

  @Override
  public void process(Record<String, V> record) {
    if (!wanted.test(record.value())) {
      return;
    }
    Integer partition = context().recordMetadata().map(m -> m.partition()).orElse(null);
    check.require(record.key(), record.value(), record.timestamp(), partition, partitions);
    context().forward(record);
  }
}
