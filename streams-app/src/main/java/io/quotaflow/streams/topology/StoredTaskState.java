package io.quotaflow.streams.topology;

import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.avro.internal.TaskCpuState;

/**
 * What of a task's CPU state the store {@link Names#TASK_STORE} holds (its {@link TaskRecords#cpu} part), and how it
 * is read back: the state without its spec (kept in {@link Names#TASK_SPEC_STORE}) and without the ids its key
 * already says. A state is written on every sample, and ids run to 128 characters each ({@code Ids}): with its own
 * ids and its last decision's, a state repeated its key twice over, 48 B per write with the bench's ids ({@code
 * bench-node-0042}, {@code task-0017}), up to ~520 B with the longest. A state's last decision is kept without ids
 * by the decision maker ({@link CpuDecisionMaker#kept}); its own are left out here, at the write, and put back from
 * the key at the read.
 */
final class StoredTaskState {

  private StoredTaskState() {}

  /** A copy of {@code state}, sharing its nested records, as the store keeps it: no spec, empty ids. */
  static TaskCpuState stored(TaskCpuState state) {
    return new TaskCpuState("", "", null, state.getObservedHardLimitCpu(), state.getFirstSeenTsMs(),
        state.getLastSampleTsMs(), state.getMonitor(), state.getLastDecision());
  }

  /**
   * A state read from the store under {@code key} as its processor keeps it: with the ids of {@code key} (not
   * checked again: a key was checked when its first record came in), its last decision without ids, and with
   * {@code spec}, the spec store's (null: none), or the one it holds when it was written before the spec moved.
   * States written before the ids were left out hold them; they are read the same way. A copy, sharing the nested
   * records: {@code stored} may be the value that waits in the write-back for the commit, which another thread's
   * read (the live-state API) must not change.
   */
  static TaskCpuState read(String key, TaskCpuState stored, TaskSpec spec) {
    CpuDecision last = stored.getLastDecision();
    return new TaskCpuState(TaskKey.nodeOf(key), TaskKey.taskOf(key),
        stored.getSpec() != null ? stored.getSpec() : spec, stored.getObservedHardLimitCpu(), stored.getFirstSeenTsMs(),
        stored.getLastSampleTsMs(), stored.getMonitor(),
        last == null || last.getNode().isEmpty() ? last : CpuDecisionMaker.kept(last));
  }
}
