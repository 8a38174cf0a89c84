package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.testharness.FuzzBudget;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import picocli.CommandLine;

/**
 * Random and mutated input to the commands that take it from a user: JSON lines into {@code quotaflow
 * simulate}, and FIELD=VALUE arguments into {@code spec|pool|cluster set --dry-run} (which connect to
 * nothing). Whatever comes in, the command exits with one of its documented codes and says what is
 * wrong in a line naming the input line or the field, never with a stack trace; and simulate still
 * simulates the good lines after the bad ones.
 */
@AddLifecycleHook(FuzzBudget.class)
class CommandInputFuzzTest {

  private static final long T0 = 1_700_000_000_000L;
  /** The lines of docs/simulate.md's example: what mutations start from. */
  private static final List<String> VALID_LINES = List.of(
      "{\"type\": \"cluster\", \"key\": \"main\", \"value\": {\"cluster\": \"main\", \"enforce_per_period_quota\": false}}",
      "{\"type\": \"node\", \"key\": \"n1\", \"value\": {\"node\": \"n1\", \"ts_ms\": " + T0
          + ", \"memory_total_bytes\": 8589934592, \"cpus\": 2, \"cgroup_version\": 1}}",
      "{\"type\": \"task\", \"key\": \"n1/idle\", \"value\": {\"node\": \"n1\", \"task\": \"idle\", \"ncpus\": 2,"
          + " \"job_cpu_monitor\": {\"enable_cpu_reclaim\": true}}}",
      "{\"type\": \"sample\", \"key\": \"n1/idle\", \"value\": {\"node\": \"n1\", \"task\": \"idle\", \"ts_ms\": " + T0
          + ", \"cpu_usage_usec\": 0, \"memory_bytes\": 104857600}}",
      "{\"type\": \"pool\", \"key\": \"prod\", \"value\": {\"weight\": 2, \"guarantee_type\": \"BURST\", \"resource_flow_cpu\": 1,"
          + " \"burst_guarantee_cpu\": 2}}",
      "{\"type\": \"sample\", \"key\": \"n1/idle\", \"value\": {\"memory_anon_bytes\": {\"long\": 125829120}, \"ts_ms\": " + T0
          + ", \"cpu_usage_usec\": 10, \"memory_bytes\": 1}, \"ts_ms\": " + T0 + "}");
  /** A task of its own, after the fuzzed lines: its decision must come out whatever came before. */
  private static final String CONTROL_SPEC = "{\"type\": \"task\", \"key\": \"ctl-node/ctl-task\", \"value\": {\"ncpus\": 1}}";
  private static final String CONTROL_SAMPLE = "{\"type\": \"sample\", \"key\": \"ctl-node/ctl-task\", \"value\": {\"ts_ms\": "
      + (T0 + 1_000) + ", \"cpu_usage_usec\": 0, \"memory_bytes\": 1048576}}";

  private static Path dir;
  private static final int[] exitCodes = new int[256];

  @BeforeContainer
  static void makeDir() throws IOException {
    dir = Files.createTempDirectory("command-fuzz");
  }

  @AfterContainer
  static void report() throws IOException {
    StringBuilder codes = new StringBuilder();
    for (int code = 0; code < exitCodes.length; code++) {
      if (exitCodes[code] > 0) {
        codes.append(" exit ").append(code).append(": ").append(exitCodes[code]);
      }
    }
    System.out.println("CommandInputFuzzTest:" + codes);
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  private record Run(int exitCode, String out, String err) {}

  private static Run quotaflow(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(new QuotaflowCli()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    int code = QuotaflowCli.execute(line, args.toArray(String[]::new));
    synchronized (exitCodes) {
      exitCodes[code & 0xff]++;
    }
    return new Run(code, out.toString(), err.toString());
  }

  private static void assertNoTrace(Run run, String what) {
    assertThat(run.err()).as("%s: no stack trace", what).doesNotContainPattern("(?m)^\\s+at [\\w.$]+\\(")
        .doesNotContain("Caused by:");
    assertThat(run.out()).as("%s: no stack trace", what).doesNotContainPattern("(?m)^\\s+at [\\w.$]+\\(");
  }

  // ---- simulate ----

  /** Each try starts the topology offline (about 2 s here), so few tries of many lines each. */
  @Property(tries = 8)
  void simulateNamesEachBadLineAndStillSimulatesTheGoodOnesAfterIt(@ForAll("lineFiles") List<byte[]> lines) throws IOException {
    ByteArrayOutputStream file = new ByteArrayOutputStream();
    for (byte[] line : lines) {
      file.writeBytes(line);
      file.write('\n');
    }
    file.writeBytes((CONTROL_SPEC + "\n" + CONTROL_SAMPLE + "\n").getBytes(StandardCharsets.UTF_8));
    Path input = Files.write(dir.resolve("in.jsonl"), file.toByteArray());
    Path output = dir.resolve("out.jsonl");
    Files.deleteIfExists(output);

    Run run = quotaflow(List.of("simulate", "--input", input.toString(), "--output", output.toString()));

    String what = "simulate over " + lines.size() + " fuzzed lines";
    assertNoTrace(run, what);
    assertThat(run.exitCode()).as("%s: %s", what, run.err()).isIn(0, SimulateCommand.LINES_REJECTED);
    List<String> said = run.err().lines().toList();
    assertThat(said).as(what).isNotEmpty();
    assertThat(said.get(said.size() - 1)).matches("quotaflow simulate: \\d+ lines, \\d+ records in, \\d+ records out, \\d+ lines rejected");
    assertThat(said.subList(0, said.size() - 1)).as(what).allSatisfy(line ->
        assertThat(line).matches("(?s)quotaflow simulate: line \\d+: .+"));
    if (run.exitCode() == 0) {
      assertThat(said).hasSize(1);
    }
    assertThat(Files.readString(output)).as("%s: the control task after them is decided; %s", what, run.err())
        .contains("\"topic\":\"cpu-decisions\",\"key\":\"ctl-node/ctl-task\"");
  }

  @Provide
  Arbitrary<List<byte[]>> lineFiles() {
    return Arbitraries.frequencyOf(
        Tuple.of(3, validLines().map(s -> s.getBytes(StandardCharsets.UTF_8))),
        Tuple.of(6, mutatedLines().map(s -> s.getBytes(StandardCharsets.UTF_8))),
        Tuple.of(2, hostileKeys()),
        Tuple.of(1, Arbitraries.bytes().array(byte[].class).ofMaxSize(200)
            .map(b -> { // random bytes, one line each
              for (int i = 0; i < b.length; i++) {
                if (b[i] == '\n' || b[i] == '\r') {
                  b[i] = ' ';
                }
              }
              return b;
            })))
        .list().ofMinSize(1).ofMaxSize(30);
  }

  private static Arbitrary<String> validLines() {
    return Arbitraries.of(VALID_LINES);
  }

  /** A valid line with characters replaced, deleted or inserted, or a value swapped for odd JSON. */
  private static Arbitrary<String> mutatedLines() {
    Arbitrary<String> odd = Arbitraries.of("null", "true", "-1", "0", "1e308", "-1e308", "9223372036854775808",
        "-9223372036854775809", "1.5", "\"NaN\"", "\"Infinity\"", "\"\"", "\"x\"", "[]", "[1,2]", "{}", "{\"long\": 1}",
        "{\"double\": \"NaN\"}", "{\"string\": 1}", "{\"a\": {\"b\": {\"c\": []}}}", "\"" + "z".repeat(300) + "\"",
        "\"..\"", "\"../x\"", "\"\\u0000\"", "\"\\ud800\"");
    Arbitrary<String> replaced = Combinators.combine(validLines(), Arbitraries.integers().between(0, 400), odd)
        .as((line, where, value) -> {
          // Swaps the value after the n-th ':' (mod their number) for an odd one, up to the next ',' or '}'.
          List<Integer> colons = new ArrayList<>();
          for (int i = 0; i < line.length(); i++) {
            if (line.charAt(i) == ':') {
              colons.add(i);
            }
          }
          int start = colons.get(where % colons.size()) + 1;
          int end = start;
          while (end < line.length() && line.charAt(end) != ',' && line.charAt(end) != '}') {
            end++;
          }
          return line.substring(0, start) + " " + value + line.substring(end);
        });
    Arbitrary<String> edited = Combinators.combine(validLines(), Arbitraries.integers().between(0, 400),
            Arbitraries.integers().between(0, 5), Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(3))
        .as((line, where, cut, insert) -> {
          int at = where % (line.length() + 1);
          return line.substring(0, at) + insert + line.substring(Math.min(line.length(), at + cut));
        });
    Arbitrary<String> fieldAdded = Combinators.combine(validLines(), Arbitraries.of("colour", "topic", "type", "key", "ts_ms"), odd)
        .as((line, field, value) -> line.substring(0, line.length() - 1) + ", \"" + field + "\": " + value + "}");
    return Arbitraries.oneOf(replaced, edited, fieldAdded);
  }

  /** Lines whose key is a traversal, oversized, not UTF-8, or disagrees with the value. */
  private static Arbitrary<byte[]> hostileKeys() {
    Arbitrary<String> keys = Arbitraries.of("n1/..", "../n1", "n1/../../etc", "n1/.", "/", "n1/", "/t", "n1/a/b", "n1/"
        + "t".repeat(129), "n".repeat(129) + "/t", "n1/t t", "n1/t\\u0000", "n2/idle", "n1/other", "", ".hidden", "main/x");
    Arbitrary<String> types = Arbitraries.of("task", "sample", "node", "pool", "cluster");
    Arbitrary<byte[]> named = Combinators.combine(types, keys).as((type, key) -> ("{\"type\": \"" + type + "\", \"key\": \"" + key
        + "\", \"value\": {\"node\": \"n1\", \"task\": \"idle\", \"ts_ms\": " + T0 + ", \"cpu_usage_usec\": 0, \"memory_bytes\": 1}}")
        .getBytes(StandardCharsets.UTF_8));
    Arbitrary<byte[]> notUtf8 = types.map(type -> {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      line.writeBytes(("{\"type\": \"" + type + "\", \"key\": \"n1/").getBytes(StandardCharsets.UTF_8));
      line.writeBytes(new byte[] {(byte) 0xff, (byte) 0xfe, (byte) 0xc3, (byte) 0x28});
      line.writeBytes(("\", \"value\": {\"ts_ms\": " + T0 + ", \"cpu_usage_usec\": 0, \"memory_bytes\": 1}}").getBytes(StandardCharsets.UTF_8));
      return line.toByteArray();
    });
    return Arbitraries.oneOf(named, notUtf8);
  }

  // ---- spec|pool|cluster set --dry-run ----

  /** Each try builds the whole command line (about 0.2 s here). */
  @Property(tries = 40)
  void setCommandsRefuseBadAssignmentsWithAUsageError(@ForAll("setCommands") List<String> args) {
    Run run = quotaflow(args);
    assertNoTrace(run, String.join(" ", args));
    assertThat(run.exitCode()).as("%s: %s", args, run.err()).isIn(0, 2);
    if (run.exitCode() == 2) {
      // Ours name the command and the field; picocli's own (no FIELD=VALUE at all, an unknown option) come with the usage.
      assertThat(run.err()).as("%s", args).satisfiesAnyOf(
          err -> assertThat(err).startsWith("quotaflow " + args.get(0) + " set: "),
          err -> assertThat(err).contains("Usage: quotaflow " + args.get(0) + " set"));
    } else {
      assertThat(run.out()).startsWith("# --dry-run: nothing was sent");
    }
  }

  @Provide
  Arbitrary<List<String>> setCommands() {
    Arbitrary<List<String>> spec = Combinators.combine(Arbitraries.of("n1/t1", "n1/..", "../t", "n1/" + "t".repeat(129), "n1",
        "n1/t\u00ff", ""), assignments("ncpus", "cpu_limit", "pool", "operation", "memory_normal_bytes", "memory_peak_bytes",
        "job_cpu_monitor.smoothing_factor", "job_cpu_monitor.enable_cpu_reclaim", "job_cpu_monitor", "colour"))
        .as((key, fields) -> withCommand(List.of("spec", "set", key), fields));
    Arbitrary<List<String>> pool = Combinators.combine(Arbitraries.of("prod", "..", "p/q", "p".repeat(129), "-x", ""),
        assignments("weight", "guarantee_type", "resource_flow_cpu", "burst_guarantee_cpu", "strong_guarantee_cpu", "parent",
            "max_cpu", "colour"))
        .as((key, fields) -> withCommand(List.of("pool", "set", key), fields));
    Arbitrary<List<String>> cluster = assignments("enforcement", "cfs_period_us", "peak_threshold_ratio", "peak_release_ratio",
        "enforce_per_period_quota", "freeze_lease_ms", "cluster", "colour")
        .map(fields -> withCommand(List.of("cluster", "set"), fields));
    return Arbitraries.oneOf(spec, pool, cluster);
  }

  private static List<String> withCommand(List<String> command, List<String> fields) {
    List<String> args = new ArrayList<>(command);
    args.add("--dry-run");
    args.addAll(fields);
    // Nothing listens on port 1: a command that got as far as connecting would say so instead.
    args.addAll(List.of("--bootstrap", "127.0.0.1:1", "--registry", "http://127.0.0.1:1"));
    return args;
  }

  private static Arbitrary<List<String>> assignments(String... fields) {
    Arbitrary<String> names = Arbitraries.oneOf(Arbitraries.of(fields),
        Arbitraries.strings().withCharRange('!', '~').ofMaxLength(20));
    Arbitrary<String> values = Arbitraries.oneOf(
        Arbitraries.of("1", "0", "-1", "2", "0.5", "1e308", "NaN", "Infinity", "-0", "true", "false", "null", "", "ON", "OFF",
            "DRY_RUN", "BURST", "STRONG", "{}", "[]", "{\"a\":1}", "[1,2]", "\"x\"", "{\"enable_cpu_reclaim\": true}",
            "9223372036854775808", "0x10", "1_000", "prod", "..", "\u00ff\u0000"),
        Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(30),
        Arbitraries.strings().ofMaxLength(10));
    Arbitrary<String> assignment = Arbitraries.frequencyOf(
        Tuple.of(8, Combinators.combine(names, values).as((n, v) -> n + "=" + v)),
        Tuple.of(1, Arbitraries.strings().withCharRange(' ', '~').ofMaxLength(20)));
    return assignment.list().ofMinSize(0).ofMaxSize(5);
  }
}
