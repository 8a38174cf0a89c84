package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.internal.GateTaskRecord;
import io.quotaflow.schemas.avro.internal.TaskCpuState;
import io.quotaflow.schemas.avro.internal.TaskRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The two stores a task's CPU state and gate record had before they became one record ({@link Names#TASK_STORE},
 * 2026-11-29): {@code cpu-task-state} and {@code peak-gate-tasks}. They stay in the topology so their changelogs
 * are restored, and {@link #moveInto} moves what an older version left there into the new store when a task starts,
 * record by record as it was written (the readers still read every older layout of the two), deleting it there.
 * Both writes go into the transaction of the task's first commit; once it is done the old stores are empty, and
 * their restore and this look at them cost next to nothing.
 */
final class LegacyTaskStores {

  private LegacyTaskStores() {}

  /** Moves the task records of the older stores into {@link Names#TASK_STORE}; how many keys it moved. */
  static int moveInto(ProcessorContext<?, ?> context) {
    KeyValueStore<String, TaskCpuState> cpu = context.getStateStore(Names.LEGACY_TASK_CPU_STORE);
    KeyValueStore<String, GateTaskRecord> gate = context.getStateStore(Names.LEGACY_GATE_TASKS_STORE);
    KeyValueStore<String, TaskRecord> records = context.getStateStore(Names.TASK_STORE);
    Map<String, TaskRecord> moved = new TreeMap<>();
    for (KeyValue<String, TaskCpuState> old : entries(cpu)) {
      moved.put(old.key, new TaskRecord(old.value, null));
      cpu.delete(old.key);
    }
    for (KeyValue<String, GateTaskRecord> old : entries(gate)) {
      TaskRecord withCpu = moved.get(old.key);
      moved.put(old.key, new TaskRecord(withCpu == null ? null : withCpu.getCpu(), old.value));
      gate.delete(old.key);
    }
    for (Map.Entry<String, TaskRecord> entry : moved.entrySet()) {
      TaskRecord current = records.get(entry.getKey());
      TaskRecord old = entry.getValue();
      // Nothing is in the new store for a key still in an old one (the move and the deletes commit together); were
      // it so, what the new store holds is newer.
      records.put(entry.getKey(), current == null ? old : TaskRecords.record(
          current.getCpu() != null ? current.getCpu() : old.getCpu(),
          current.getGate() != null ? current.getGate() : old.getGate()));
    }
    return moved.size();
  }

  private static <V> List<KeyValue<String, V>> entries(KeyValueStore<String, V> store) {
    List<KeyValue<String, V>> all = new ArrayList<>();
    try (KeyValueIterator<String, V> it = store.all()) {
      it.forEachRemaining(all::add);
    }
    return all;
  }
}
