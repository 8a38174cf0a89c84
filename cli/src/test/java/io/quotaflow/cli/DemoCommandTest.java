package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cgroups.Sandboxes;
import io.quotaflow.testharness.MetricsTable;
import io.quotaflow.testharness.Scrape;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code quotaflow demo} run in-process on free ports, in both modes, until asked to stop. */
class DemoCommandTest {

  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final Duration DECISION_TIMEOUT = Duration.ofSeconds(60);
  private static final Pattern STATUS_PAGE = Pattern.compile("Status page\\s+(\\S+)/ ");
  private static final Pattern SIMULATED_ROOT = Pattern.compile("simulated cgroup tree at (\\S+) \\(");
  private static final Pattern PID = Pattern.compile("(demo-[a-z-]+) pid (\\d+)");
  private static final Pattern HIERARCHY_PARENT = Pattern.compile(" at (/\\S+?)(;|$)", Pattern.MULTILINE);
  /** The idle task's soft limit below 1.00 in a printed table. */
  private static final Pattern IDLE_RECLAIMED = Pattern.compile("demo-idle\\s+relaxed\\s+\\S+\\s+0\\.\\d\\d / ");
  /** The busy task keeps its soft limit of a core, but the relaxed pool's cap lowers its effective limit. */
  private static final Pattern BUSY_CAPPED = Pattern.compile("(?m)^demo-busy\\s+relaxed\\s+\\S+\\s+1\\.00 / 0\\.\\d\\d ");
  /** The burst pool's row with a volume of a cpu·s or more. */
  private static final Pattern BURST_POOL_SAVES = Pattern.compile(
      "(?m)^burst\\s+BURST\\s+0\\.50\\s+1\\.00\\s+\\d\\.\\d\\d\\s+\\d\\.\\d\\d\\s+\\d\\.\\d\\d\\s+[1-9]\\d*\\.\\d cpu·s");
  /** The peak gate's story in the printed table: the second allocator waits at the head, the third behind it. */
  private static final Pattern SECOND_WAITS_AT_THE_HEAD = Pattern.compile("(?m)^demo-peak-b .* waiting +0  ");
  private static final Pattern THIRD_WAITS_BEHIND_IT = Pattern.compile("(?m)^demo-peak-c .* waiting +1  ");
  private static final Pattern SECOND_HOLDS_THE_SLOT = Pattern.compile("(?m)^demo-peak-b .* holding +-  ");
  private static final Duration GATE_TIMEOUT = Duration.ofSeconds(120);

  private final ExecutorService thread = Executors.newSingleThreadExecutor();

  /** The demo running on a thread of the test, as {@code quotaflow demo} runs in its own JVM. */
  private record Running(DemoCommand command, Future<Integer> exit, StringWriter out, StringWriter err) {
    int stop() throws Exception {
      command.requestStop();
      return exit.get(2, TimeUnit.MINUTES);
    }

    String waitFor(Pattern pattern) throws Exception {
      assertThat(eventually(START_TIMEOUT, () -> pattern.matcher(out.toString()).find() || exit.isDone()))
          .as("%s in the output:%n%s%n%s", pattern, out, err).isTrue();
      Matcher m = pattern.matcher(out.toString());
      assertThat(m.find()).as("%s in the output (the demo ended):%n%s%n%s", pattern, out, err).isTrue();
      return m.group(1);
    }
  }

  @AfterEach
  void stopThread() {
    thread.shutdownNow();
  }

  @Test
  void simulatedModeReclaimsTheIdleTaskServesTheStatusPageAndRemovesItsTree() throws Exception {
    Running demo = start("--simulate", "--duration=5m", "--refresh=1s", "--port=0", "--registry-port=0", "--http-port=0",
        "--partitions=2");
    Path root = Path.of(demo.waitFor(SIMULATED_ROOT));
    assertThat(demo.out().toString()).contains("Mode              simulated cgroup tree at ").contains("(--simulate)");
    String page = demo.waitFor(STATUS_PAGE);
    try {
      Path idleShares = root.resolve("cpu/quotaflow/demo-idle/cpu.shares");
      assertThat(eventually(DECISION_TIMEOUT, () -> sharesOf(idleShares) < 1000))
          .as("the enforcer lowers the idle task's shares in the simulated tree%n%s", demo.out()).isTrue();
      assertThat(eventually(DECISION_TIMEOUT, () -> IDLE_RECLAIMED.matcher(demo.out().toString()).find()))
          .as("the table shows the idle task's lower soft limit%n%s", demo.out()).isTrue();
      assertThat(sharesOf(root.resolve("cpu/quotaflow/demo-zero/cpu.shares"))).isEqualTo(2);
      assertThat(Files.readString(root.resolve("cpu/quotaflow/demo-zero/cpu.cfs_quota_us")).trim()).isEqualTo("20600");
      assertThat(demo.out().toString()).contains("demo-busy", "demo-idle", "demo-bursty", "demo-zero");

      Path busyShares = root.resolve("cpu/quotaflow/demo-busy/cpu.shares");
      assertThat(eventually(DECISION_TIMEOUT, () -> BUSY_CAPPED.matcher(demo.out().toString()).find()
          && sharesOf(busyShares) < 1000))
          .as("the relaxed pool's cap lowers the busy task's effective limit and its cpu.shares%n%s", demo.out()).isTrue();
      assertThat(eventually(GATE_TIMEOUT, () -> BURST_POOL_SAVES.matcher(demo.out().toString()).find()))
          .as("the burst pool's volume grows while its task idles%n%s", demo.out()).isTrue();

      Path secondFreezer = root.resolve("freezer/quotaflow/demo-peak-b/freezer.state");
      assertThat(eventually(GATE_TIMEOUT, () -> SECOND_WAITS_AT_THE_HEAD.matcher(demo.out().toString()).find()))
          .as("the second allocator frozen at the head of the queue%n%s", demo.out()).isTrue();
      assertThat(eventually(GATE_TIMEOUT, () -> THIRD_WAITS_BEHIND_IT.matcher(demo.out().toString()).find()))
          .as("the third queued behind it%n%s", demo.out()).isTrue();
      assertThat(eventually(GATE_TIMEOUT, () -> SECOND_HOLDS_THE_SLOT.matcher(demo.out().toString()).find()
          && contentOf(secondFreezer).equals("THAWED")))
          .as("the second thawed into the freed slot%n%s", demo.out()).isTrue();

      HttpClient http = HttpClient.newHttpClient();
      HttpResponse<String> status = http.send(HttpRequest.newBuilder(URI.create(page + "/")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(status.statusCode()).isEqualTo(200);
      assertThat(status.body()).contains("<td>demo-idle</td>", "<td>demo-zero</td>", "simulated cgroup tree at")
          .contains("<th>memory</th><th>gate</th><th>queue</th>", "<td>demo-peak-b</td>")
          .contains("<h2>pools</h2>", "<td>burst</td><td>BURST</td>", "<td>relaxed</td><td>RELAXED</td>");
      HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(page + "/metrics")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("component=\"demo\"");
      // One registry for the streams app and the enforcer: both tables of docs/operations.md, nothing else of ours.
      Map<String, String> ours = new LinkedHashMap<>(MetricsTable.types("streams"));
      ours.putAll(MetricsTable.types("enforcer"));
      Scrape scrape = new Scrape(metrics.body());
      assertThat(scrape.families("quotaflow_")).containsExactlyInAnyOrderEntriesOf(ours);
      assertThat(scrape.families()).containsAllEntriesOf(MetricsTable.types("every process"));
      assertThat(metrics.body()).contains("quotaflow_enforcer_mode{component=\"demo\",mode=\"ON\"} 1.0");
    } finally {
      assertThat(demo.stop()).as("exit code; stderr:%n%s", demo.err()).isZero();
    }
    assertThat(demo.out().toString()).containsPattern(
        "Stopped after \\d+ s: [1-9]\\d* CPU decisions seen, [1-9]\\d* applied; ([2-9]|[1-9]\\d+) freezes, [1-9]\\d* thaws; ");
    assertThat(root).doesNotExist();
  }

  @Test
  void dryRunReportsDecisionsAndWritesNothing() throws Exception {
    Running demo = start("--simulate", "--dry-run", "--duration=5m", "--refresh=1s", "--port=0", "--registry-port=0",
        "--http-port=0", "--partitions=1");
    Path root = Path.of(demo.waitFor(SIMULATED_ROOT));
    try {
      assertThat(eventually(DECISION_TIMEOUT, () -> IDLE_RECLAIMED.matcher(demo.out().toString()).find()))
          .as("the idle task's soft limit still comes down%n%s", demo.out()).isTrue();
      assertThat(demo.out().toString()).containsPattern("demo-idle .* DRY_RUN \\d+s ago");
      for (String task : List.of("demo-busy", "demo-idle", "demo-bursty", "demo-zero")) {
        assertThat(sharesOf(root.resolve("cpu/quotaflow/" + task + "/cpu.shares"))).as(task).isEqualTo(1024);
      }
    } finally {
      assertThat(demo.stop()).as("exit code; stderr:%n%s", demo.err()).isZero();
    }
    assertThat(demo.out().toString()).containsPattern("[1-9]\\d* CPU decisions seen, 0 applied");
  }

  @Test
  void realModeRunsWorkloadsInRealGroupsAndLeavesNothingBehind() throws Exception {
    try (CgroupSandbox probe = Sandboxes.openV1WithFreezerOrSkip()) {
      // cgroups are writable here: the probe's own parent is removed again at once
    }
    String parent = "quotaflow-demo-test-" + UUID.randomUUID().toString().substring(0, 8);
    Running demo = start("--parent=" + parent, "--duration=5m", "--refresh=1s", "--port=0", "--registry-port=0",
        "--http-port=0", "--partitions=2");
    List<Path> parents;
    Map<String, Long> pids = new LinkedHashMap<>();
    try {
      demo.waitFor(Pattern.compile("(Workloads) "));
      String mode = demo.out().toString().lines().filter(l -> l.startsWith("Mode")).findFirst().orElseThrow();
      assertThat(mode).contains("real cgroups: cgroup v1").contains(parent);
      parents = parentsIn(mode);
      Matcher m = PID.matcher(demo.out().toString());
      while (m.find()) {
        pids.put(m.group(1), Long.parseLong(m.group(2)));
      }
      assertThat(pids).containsOnlyKeys("demo-busy", "demo-idle", "demo-bursty", "demo-zero", "demo-peak-a",
          "demo-peak-b", "demo-peak-c");
      assertThat(pids.values()).allMatch(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
      Path cpu = parents.stream().filter(p -> p.startsWith("/sys/fs/cgroup/cpu/")).findFirst().orElseThrow();
      demo.waitFor(STATUS_PAGE);
      assertThat(sharesOf(cpu.resolve("demo-busy/cpu.shares"))).as("busy's cpu.shares readable").isLessThan(Long.MAX_VALUE);
      assertThat(eventually(DECISION_TIMEOUT, () -> sharesOf(cpu.resolve("demo-idle/cpu.shares"))
          < sharesOf(cpu.resolve("demo-busy/cpu.shares")) && sharesOf(cpu.resolve("demo-busy/cpu.shares")) < Long.MAX_VALUE))
          .as("the idle task's real cpu.shares fall below the busy one's%n%s", demo.out()).isTrue();
      assertThat(sharesOf(cpu.resolve("demo-zero/cpu.shares"))).isEqualTo(2);
      assertThat(Files.readString(cpu.resolve("demo-zero/cpu.cfs_quota_us")).trim()).isEqualTo("20600");

      Path freezer = parents.stream().filter(p -> p.startsWith("/sys/fs/cgroup/freezer/")).findFirst().orElseThrow();
      assertThat(eventually(GATE_TIMEOUT, () -> contentOf(freezer.resolve("demo-peak-b/freezer.state")).equals("FROZEN")))
          .as("the kernel freezes the second allocator while the first holds the slot%n%s", demo.out()).isTrue();
      assertThat(eventually(GATE_TIMEOUT, () -> contentOf(freezer.resolve("demo-peak-b/freezer.state")).equals("THAWED")
          && contentOf(freezer.resolve("demo-peak-c/freezer.state")).equals("FROZEN")))
          .as("then thaws it while the third still waits%n%s", demo.out()).isTrue();
    } finally {
      assertThat(demo.stop()).as("exit code; stderr:%n%s", demo.err()).isZero();
    }
    for (long pid : pids.values()) {
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("workload pid %d", pid).isFalse();
    }
    assertThat(parents).hasSizeGreaterThanOrEqualTo(4).allMatch(p -> !Files.exists(p));
    assertThat(demo.out().toString()).containsPattern("[1-9]\\d* freezes, [1-9]\\d* thaws; ");
  }

  @Test
  void aTakenPortIsOneLineAndNothingStarts() throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("localhost"))) {
      Running demo = start("--simulate", "--http-port=" + taken.getLocalPort(), "--port=0", "--registry-port=0");
      assertThat(demo.exit().get(1, TimeUnit.MINUTES)).isEqualTo(1);
      assertThat(demo.err().toString().lines()).containsExactly(
          "quotaflow demo: port " + taken.getLocalPort() + " on localhost (--http-port) is in use");
      assertThat(demo.out().toString()).doesNotContain("Mode");
    }
  }

  private Running start(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine commandLine = new CommandLine(new QuotaflowCli());
    commandLine.setOut(new PrintWriter(out, true));
    commandLine.setErr(new PrintWriter(err, true));
    DemoCommand command = commandLine.getSubcommands().get("demo").getCommand();
    List<String> argv = new ArrayList<>(List.of("demo"));
    argv.addAll(List.of(args));
    Future<Integer> exit = thread.submit(() -> QuotaflowCli.execute(commandLine, argv.toArray(String[]::new)));
    return new Running(command, exit, out, err);
  }

  /** The parent's directory in each hierarchy, from the mode line ("cpu at /sys/fs/cgroup/cpu/...; ..."). */
  private static List<Path> parentsIn(String mode) {
    List<Path> parents = new ArrayList<>();
    Matcher m = HIERARCHY_PARENT.matcher(mode);
    while (m.find()) {
      parents.add(Path.of(m.group(1)));
    }
    return parents;
  }

  private static String contentOf(Path file) {
    try {
      return Files.readString(file).trim();
    } catch (IOException e) {
      return "unreadable: " + e.getMessage();
    }
  }

  private static long sharesOf(Path file) {
    try {
      return Long.parseLong(Files.readString(file).trim());
    } catch (IOException | NumberFormatException e) {
      return Long.MAX_VALUE; // not there or being rewritten: not lower yet
    }
  }

  private static boolean eventually(Duration timeout, BooleanSupplier condition) throws InterruptedException {
    return Sandboxes.eventually(timeout, condition);
  }
}
