package io.quotaflow.enforcer;

import io.quotaflow.cgroups.CgroupCpuRead;
import io.quotaflow.cgroups.TaskId;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What this enforcer changed on the node and must be able to undo: the values each group had
 * before Quotaflow first wrote it, and the freezes it made ({@link LeaseBook}). Every change is
 * saved to the {@link StateFile} before the cgroup is touched (write-ahead), so a crash between the
 * two never loses an original value or strands a frozen task.
 */
final class NodeLedger {

  private final StateFile file;
  private final String node;
  private final String cgroups;
  private final Map<TaskId, CgroupCpuRead> originals = new TreeMap<>();
  private final LeaseBook leases;
  private String savedCgroups;

  private NodeLedger(StateFile file, String node, String cgroups, LeaseBook leases) {
    this.file = file;
    this.node = node;
    this.cgroups = cgroups;
    this.leases = leases;
  }

  /**
   * Loads the saved state. Entries whose task id is no longer valid are dropped (they could not
   * have been written by this code); the caller prunes groups that no longer exist.
   */
  static NodeLedger load(StateFile file, String node, String cgroups, LeaseBook leases) throws IOException {
    NodeLedger ledger = new NodeLedger(file, node, cgroups, leases);
    StateFile.Content content = file.load(node, cgroups);
    ledger.savedCgroups = content.cgroups();
    content.originalCpu().forEach((task, v) -> {
      if (TaskId.isValid(task)) {
        ledger.originals.put(TaskId.of(task), new CgroupCpuRead(v.shares(), v.weight(), v.quotaUs(), v.periodUs()));
      }
    });
    content.frozenByUs().forEach((task, f) -> {
      if (TaskId.isValid(task)) {
        leases.hold(TaskId.of(task), f.expiresAtMs(),
            new DecisionRef(f.decisionTopic(), f.decisionPartition(), f.decisionOffset(), f.decisionTimestampMs()));
      }
    });
    return ledger;
  }

  /** The cgroups the state was saved under, when they differ from those in use (a changed --parent?). */
  Optional<String> savedUnderOtherCgroups() {
    return savedCgroups == null || savedCgroups.equals(cgroups) ? Optional.empty() : Optional.of(savedCgroups);
  }

  LeaseBook leases() {
    return leases;
  }

  Optional<CgroupCpuRead> original(TaskId task) {
    return Optional.ofNullable(originals.get(task));
  }

  /** Tasks with saved originals, by id: what OFF restores. */
  List<TaskId> tasksWithOriginals() {
    return List.copyOf(originals.keySet());
  }

  /** Records the values a group has before its first write, and saves. */
  void recordOriginal(TaskId task, CgroupCpuRead values) throws IOException {
    CgroupCpuRead previous = originals.put(task, values);
    try {
      save();
    } catch (IOException e) {
      undo(originals, task, previous);
      throw e;
    }
  }

  /** The group holds its original values again (restored) or is gone: nothing left to undo. */
  void forgetOriginal(TaskId task) throws IOException {
    if (originals.remove(task) != null) {
      save();
    }
  }

  /** This enforcer froze the group, or renewed its freeze; saved before the freezer is written. */
  void hold(TaskId task, long expiresAtMs, DecisionRef ref) throws IOException {
    Optional<LeaseBook.Lease> previous = leases.lease(task);
    leases.hold(task, expiresAtMs, ref);
    try {
      save();
    } catch (IOException e) {
      // Not saved, not held: the caller writes nothing it could not undo after a crash.
      previous.ifPresentOrElse(p -> leases.hold(task, p.expiresAtMs(), p.ref()), () -> leases.release(task));
      throw e;
    }
  }

  void release(TaskId task) throws IOException {
    if (leases.holds(task)) {
      leases.release(task);
      save();
    }
  }

  void endLeaseNow(TaskId task, long nowMs) throws IOException {
    if (leases.holds(task)) {
      leases.endNow(task, nowMs);
      save();
    }
  }

  private static <V> void undo(Map<TaskId, V> map, TaskId task, V previous) {
    if (previous == null) {
      map.remove(task);
    } else {
      map.put(task, previous);
    }
  }

  private void save() throws IOException {
    Map<String, StateFile.OriginalCpu> savedOriginals = new HashMap<>();
    originals.forEach((task, v) -> savedOriginals.put(task.value(),
        new StateFile.OriginalCpu(v.shares(), v.weight(), v.quotaUs(), v.periodUs())));
    Map<String, StateFile.FrozenLease> savedLeases = new HashMap<>();
    for (LeaseBook.Lease lease : leases.all()) {
      DecisionRef ref = lease.ref();
      savedLeases.put(lease.task().value(), new StateFile.FrozenLease(lease.expiresAtMs(), ref.topic(),
          ref.partition(), ref.offset(), ref.recordTimestampMs()));
    }
    file.save(new StateFile.Content(StateFile.VERSION, node, cgroups, savedOriginals, savedLeases));
  }
}
