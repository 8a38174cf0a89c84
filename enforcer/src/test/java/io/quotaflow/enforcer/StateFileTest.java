package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.cgroups.CgroupCpuRead;
import io.quotaflow.cgroups.TaskId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateFileTest {

  @TempDir Path dir;

  static final String CGROUPS = "cgroup v1, task groups under cpu at /sys/fs/cgroup/cpu/quotaflow";
  static final DecisionRef REF = new DecisionRef("quotaflow.freeze-decisions", 4, 17, 1_700_000_000_000L);

  @Test
  void originalsAndLeasesSurviveARestart() throws IOException {
    Path path = dir.resolve("state/node-1.json");
    try (StateFile file = StateFile.open(path)) {
      NodeLedger ledger = NodeLedger.load(file, "node-1", CGROUPS, new LeaseBook(5_000));
      ledger.recordOriginal(TaskId.of("job-1"), new CgroupCpuRead(1024L, null, -1, 100_000));
      ledger.recordOriginal(TaskId.of("job-2"), new CgroupCpuRead(null, 100L, 50_000, 100_000));
      ledger.hold(TaskId.of("job-3"), 1_700_000_180_000L, REF);
    }
    assertThat(Files.list(path.getParent()).map(p -> p.getFileName().toString()))
        .as("no temporary file left").containsExactlyInAnyOrder("node-1.json", "node-1.json.lock");
    assertThat(Files.readString(path)).contains("\"original_cpu\"", "\"quota_us\" : -1", "\"frozen_by_us\"",
        "\"expires_at_ms\" : 1700000180000", "\"decision_offset\" : 17");

    try (StateFile file = StateFile.open(path)) {
      LeaseBook leases = new LeaseBook(5_000);
      NodeLedger ledger = NodeLedger.load(file, "node-1", CGROUPS, leases);
      assertThat(ledger.original(TaskId.of("job-1"))).contains(new CgroupCpuRead(1024L, null, -1, 100_000));
      assertThat(ledger.original(TaskId.of("job-2"))).contains(new CgroupCpuRead(null, 100L, 50_000, 100_000));
      assertThat(leases.lease(TaskId.of("job-3"))).contains(new LeaseBook.Lease(TaskId.of("job-3"), 1_700_000_180_000L, REF));
      assertThat(ledger.savedUnderOtherCgroups()).isEmpty();

      ledger.forgetOriginal(TaskId.of("job-1"));
      ledger.release(TaskId.of("job-3"));
    }
    try (StateFile file = StateFile.open(path)) {
      LeaseBook leases = new LeaseBook(5_000);
      NodeLedger ledger = NodeLedger.load(file, "node-1", CGROUPS, leases);
      assertThat(ledger.tasksWithOriginals()).containsExactly(TaskId.of("job-2"));
      assertThat(leases.all()).isEmpty();
    }
  }

  @Test
  void aReflexLeaseNamingItsGateTableSurvivesARestartLikeAnyLease() throws IOException {
    Path path = dir.resolve("node-1.json");
    DecisionRef table = new DecisionRef("quotaflow.gate-tables", 4, 9, 1_700_000_001_000L);
    try (StateFile file = StateFile.open(path)) {
      NodeLedger.load(file, "node-1", CGROUPS, new LeaseBook(5_000)).hold(TaskId.of("job-9"), 1_700_000_011_000L, table);
    }
    try (StateFile file = StateFile.open(path)) {
      LeaseBook leases = new LeaseBook(5_000);
      NodeLedger.load(file, "node-1", CGROUPS, leases);
      assertThat(leases.lease(TaskId.of("job-9"))).contains(new LeaseBook.Lease(TaskId.of("job-9"), 1_700_000_011_000L, table));
      assertThat(leases.due(1_700_000_011_000L)).as("and runs out like any lease").isPresent();
    }
  }

  @Test
  void noFileMeansNothingToRestore() throws IOException {
    try (StateFile file = StateFile.open(dir.resolve("fresh.json"))) {
      NodeLedger ledger = NodeLedger.load(file, "node-1", CGROUPS, new LeaseBook(0));
      assertThat(ledger.tasksWithOriginals()).isEmpty();
      assertThat(Files.exists(dir.resolve("fresh.json"))).as("nothing written until there is something to keep").isFalse();
    }
  }

  @Test
  void aCorruptFileStopsTheStartInsteadOfLosingOriginals() throws IOException {
    Path path = dir.resolve("node-1.json");
    Files.writeString(path, "{\"version\": 1, \"node\": \"node-1\", \"original_cpu\": {\"job\": ");
    try (StateFile file = StateFile.open(path)) {
      assertThatThrownBy(() -> NodeLedger.load(file, "node-1", CGROUPS, new LeaseBook(0)))
          .isInstanceOf(IOException.class).hasMessageContaining("cannot read the enforcer state file")
          .hasMessageContaining("move it away");
    }
  }

  @Test
  void anotherNodesFileIsRefused() throws IOException {
    Path path = dir.resolve("state.json");
    try (StateFile file = StateFile.open(path)) {
      file.save(StateFile.Content.empty("node-2", CGROUPS));
      assertThatThrownBy(() -> file.load("node-1", CGROUPS)).isInstanceOf(IOException.class)
          .hasMessageContaining("belongs to node \"node-2\"");
    }
  }

  @Test
  void aFileOfOtherCgroupsIsFlagged() throws IOException {
    Path path = dir.resolve("state.json");
    try (StateFile file = StateFile.open(path)) {
      file.save(new StateFile.Content(StateFile.VERSION, "node-1", "cgroup v1 elsewhere", Map.of(), Map.of()));
      NodeLedger ledger = NodeLedger.load(file, "node-1", CGROUPS, new LeaseBook(0));
      assertThat(ledger.savedUnderOtherCgroups()).contains("cgroup v1 elsewhere");
    }
  }

  @Test
  void aSecondEnforcerCannotUseTheSameFile() throws IOException {
    Path path = dir.resolve("state.json");
    try (StateFile first = StateFile.open(path)) {
      assertThatThrownBy(() -> StateFile.open(path)).isInstanceOf(IOException.class)
          .hasMessageContaining("in use by another enforcer");
    }
    StateFile.open(path).close(); // released with the first
  }

  @Test
  void idsThatAreNotSafeAreDroppedOnLoad() throws IOException {
    Path path = dir.resolve("state.json");
    Files.writeString(path, """
        {"version": 1, "node": "node-1", "cgroups": "x",
         "original_cpu": {"../etc": {"shares": 2, "weight": null, "quota_us": -1, "period_us": 100000},
                          "ok": {"shares": 2, "weight": null, "quota_us": -1, "period_us": 100000}},
         "frozen_by_us": {}}
        """);
    try (StateFile file = StateFile.open(path)) {
      NodeLedger ledger = NodeLedger.load(file, "node-1", "x", new LeaseBook(0));
      assertThat(ledger.tasksWithOriginals()).containsExactly(TaskId.of("ok"));
    }
  }
}
