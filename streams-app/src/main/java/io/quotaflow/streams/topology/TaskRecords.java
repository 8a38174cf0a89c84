package io.quotaflow.streams.topology;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import io.quotaflow.schemas.avro.internal.TaskRecord;
import java.util.function.BiConsumer;
import java.util.function.Function;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * One processor's part of the store {@link Names#TASK_STORE}: a task's CPU state ({@link #cpu}, the CPU processor's)
 * or its gate record ({@link #gate}, the peak gate's), which one {@link TaskRecord} per task holds together.
 *
 * <p>A sample changes both, and each processor writes its part at once; the two writes wait in the write-back as one
 * ({@link WriteBackStore#putPart}), so the commit builds, encodes and writes one record per task, with one changelog
 * record, where the two stores of before wrote two, each with its key, its RocksDB write and its changelog framing
 * (docs/benchmarks.md, <i>One record per task</i>). Reads see a record's part as its processor last wrote it; a
 * record whose parts are both gone is deleted.
 *
 * @param <P> the part's record
 */
final class TaskRecords<P> {

  private static final StringSerializer KEYS = new StringSerializer();
  private static final int CPU = 0;
  private static final int GATE = 1;
  private static final WriteBackStore.Deferred<Object> GONE = () -> null;

  /** A task's record as its two parts. */
  private static final WriteBackStore.Layout<TaskRecord> LAYOUT = new WriteBackStore.Layout<>() {
    @Override
    public int parts() {
      return 2;
    }

    @Override
    public Object part(TaskRecord value, int index) {
      return index == CPU ? value.getCpu() : value.getGate();
    }

    @Override
    public TaskRecord of(Object[] parts) {
      return record((TaskCpuState) parts[CPU], (GateTaskRecord) parts[GATE]);
    }
  };

  private final KeyValueStore<String, TaskRecord> store;
  private final WriteBackStore<TaskRecord> written;
  private final int part;
  private final Function<TaskRecord, P> read;

  private TaskRecords(KeyValueStore<String, TaskRecord> store, int part, Function<TaskRecord, P> read) {
    this.store = store;
    this.written = WriteBackStore.beneath(store);
    this.part = part;
    this.read = read;
  }

  /** The CPU processor's part: the task's CPU state as {@link StoredTaskState} stores it. */
  static TaskRecords<TaskCpuState> cpu(KeyValueStore<String, TaskRecord> store) {
    return new TaskRecords<>(store, CPU, TaskRecord::getCpu);
  }

  /** The peak gate's part: the task's gate record as {@link GateRecords#task} builds it. */
  static TaskRecords<GateTaskRecord> gate(KeyValueStore<String, TaskRecord> store) {
    return new TaskRecords<>(store, GATE, TaskRecord::getGate);
  }

  /** The record of the two parts; null, a deleted key, when neither is left. */
  static TaskRecord record(TaskCpuState cpu, GateTaskRecord gate) {
    return cpu == null && gate == null ? null : new TaskRecord(cpu, gate);
  }

  /** This part of the task's record, or null when it has none. */
  P get(String key) {
    TaskRecord record = store.get(key);
    return record == null ? null : read.apply(record);
  }

  /** Writes this part, built at the commit (and at a read before it) from inputs that do not change. */
  void putDeferred(String key, WriteBackStore.Deferred<P> value) {
    written.putPart(key, LAYOUT, part, value);
  }

  /** Deletes this part; the record goes with it when the other part is gone too. */
  void delete(String key) {
    written.putPart(key, LAYOUT, part, GONE);
  }

  /** Hands {@code action} every task with this part, in key order. */
  void forEach(BiConsumer<String, P> action) {
    try (KeyValueIterator<String, TaskRecord> records = store.all()) {
      forEach(records, action);
    }
  }

  /** Hands {@code action} the tasks of {@code node} with this part, in key order. */
  void forEachOf(String node, BiConsumer<String, P> action) {
    try (KeyValueIterator<String, TaskRecord> records = store.prefixScan(TaskKey.nodePrefix(node), KEYS)) {
      forEach(records, action);
    }
  }

  private void forEach(KeyValueIterator<String, TaskRecord> records, BiConsumer<String, P> action) {
    while (records.hasNext()) {
      KeyValue<String, TaskRecord> record = records.next();
      P value = read.apply(record.value);
      if (value != null) {
        action.accept(record.key, value);
      }
    }
  }
}
