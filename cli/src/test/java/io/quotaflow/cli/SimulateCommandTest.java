package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.schemas.json.JsonRecords;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.io.JsonEncoder;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code quotaflow simulate} as a user runs it: files in and out, what it prints, how it exits. */
class SimulateCommandTest {

  private static final long T0 = 1_700_000_000_000L;
  private static final String GOOD_SAMPLE = "{\"type\": \"sample\", \"key\": \"n1/ok\", \"value\": {\"ts_ms\": " + T0
      + ", \"cpu_usage_usec\": 0, \"memory_bytes\": 1048576}}";

  @TempDir
  Path dir;

  private record Run(int exitCode, String out, String err) {
    List<String> errLines() {
      return err.lines().toList();
    }
  }

  private static Run quotaflow(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(new QuotaflowCli()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    int code = QuotaflowCli.execute(line, args);
    return new Run(code, out.toString(), err.toString());
  }

  private Path write(String name, List<String> lines) throws IOException {
    return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
  }

  /** Runs {@code lines} with the third one bad; returns the run, asserting the other lines were still simulated. */
  private Run withThirdLine(String bad) throws IOException {
    Path input = write("in.jsonl", List.of(
        "{\"type\": \"task\", \"key\": \"n1/ok\", \"value\": {\"ncpus\": 1}}", "", bad, GOOD_SAMPLE));
    Path output = dir.resolve("out.jsonl");
    Run run = quotaflow("simulate", "--input", input.toString(), "--output", output.toString());
    assertThat(Files.readString(output)).as("the lines around the bad one are simulated and written")
        .contains("\"topic\":\"cpu-decisions\",\"key\":\"n1/ok\"");
    return run;
  }

  /** The first fenced block after {@code heading} in the markdown, without its fences. */
  private static String blockAfter(String markdown, String heading) {
    assertThat(markdown).contains(heading);
    Matcher block = Pattern.compile("```[a-z]*\n(.*?)```", Pattern.DOTALL).matcher(markdown);
    assertThat(block.find(markdown.indexOf(heading))).as("a json block after %s", heading).isTrue();
    return block.group(1);
  }

  /** Found by CommandInputFuzzTest: the first byte that was not UTF-8 ended the run with exit 1 and "Input length = 1". */
  @Test
  void aLineThatIsNotUtf8IsRejectedByNumberAndTheOthersRun() throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    bytes.writeBytes("{\"type\": \"task\", \"key\": \"n1/ok\", \"value\": {\"ncpus\": 1}}\n{\"type\": \"task\", \"key\": \"n1/"
        .getBytes(StandardCharsets.UTF_8));
    bytes.writeBytes(new byte[] {(byte) 0xff, (byte) 0xc3, (byte) 0x28});
    bytes.writeBytes(("\", \"value\": {\"ncpus\": 1}}\n" + GOOD_SAMPLE + "\n").getBytes(StandardCharsets.UTF_8));
    Path input = Files.write(dir.resolve("latin.jsonl"), bytes.toByteArray());
    Path output = dir.resolve("out.jsonl");
    Run run = quotaflow("simulate", "--input", input.toString(), "--output", output.toString());
    assertThat(run.exitCode()).as(run.err()).isEqualTo(SimulateCommand.LINES_REJECTED);
    assertThat(run.errLines().get(0)).isEqualTo("quotaflow simulate: line 2: not valid UTF-8 at column 29"
        + " (bytes that decode to no character, or a U+FFFD replacement character)");
    assertThat(Files.readString(output)).contains("\"topic\":\"cpu-decisions\",\"key\":\"n1/ok\"");
  }

  @Test
  void theDocsExampleIsReproducedByteForByte() throws IOException {
    String doc = doc();
    Path input = Files.writeString(dir.resolve("events.jsonl"), blockAfter(doc, "## Input"));
    Path output = dir.resolve("decisions.jsonl");
    Run run = quotaflow("simulate", "--input", input.toString(), "--output", output.toString());
    assertThat(run.exitCode()).isZero();
    assertThat(Files.readString(output)).isEqualTo(blockAfter(doc, "## Output"));
    assertThat(run.err()).isEqualTo("quotaflow simulate: 5 lines, 5 records in, 2 records out, 0 lines rejected\n");
  }

  @Test
  void gateTablesAreWrittenOutOnlyWhenAskedFor() throws IOException {
    String memory = ", \"cpu_usage_usec\": 0, \"memory_bytes\": %d, \"memory_anon_bytes\": %d}}";
    long normal = 100L << 20;
    Path input = write("gate.jsonl", List.of(
        "{\"type\": \"task\", \"key\": \"n1/a\", \"value\": {\"ncpus\": 1, \"memory_normal_bytes\": " + normal + "}}",
        "{\"type\": \"task\", \"key\": \"n1/b\", \"value\": {\"ncpus\": 1, \"memory_normal_bytes\": " + normal + "}}",
        "{\"type\": \"sample\", \"key\": \"n1/a\", \"value\": {\"ts_ms\": " + T0 + String.format(memory, normal, normal),
        "{\"type\": \"sample\", \"key\": \"n1/b\", \"value\": {\"ts_ms\": " + T0 + String.format(memory, normal, normal),
        "{\"type\": \"sample\", \"key\": \"n1/a\", \"value\": {\"ts_ms\": " + (T0 + 1000)
            + String.format(memory, 120L << 20, 120L << 20)));
    Path without = dir.resolve("without.jsonl");
    Path with = dir.resolve("with.jsonl");
    assertThat(quotaflow("simulate", "--input", input.toString(), "--output", without.toString()).exitCode()).isZero();
    assertThat(quotaflow("simulate", "--input", input.toString(), "--output", with.toString(), "--gate-tables").exitCode())
        .isZero();

    assertThat(Files.readString(without)).doesNotContain("gate-tables");
    List<String> tables = Files.readAllLines(with).stream().filter(l -> l.contains("\"topic\":\"gate-tables\"")).toList();
    assertThat(tables).as("a table per change: a seen, b seen, a holds").hasSize(3);
    assertThat(tables.get(2)).contains("\"key\":\"n1\"", "\"ts_ms\":" + (T0 + 1000), "\"holders\":[\"a\"]",
        "\"free_slots\":0", "{\"task\":\"b\",\"role\":\"RUNNING\",\"interactive\":false,\"threshold_bytes\":115343360,"
            + "\"peak_bytes\":" + normal + ",\"admitted\":false}");
    assertThat(Files.readAllLines(with).stream().filter(l -> !l.contains("\"topic\":\"gate-tables\"")).toList())
        .as("the decisions are the same with the tables").isEqualTo(Files.readAllLines(without));
  }

  private static String doc() throws IOException {
    return Files.readString(Path.of("../docs/simulate.md"));
  }

  @Test
  void theDocsBadLinesAreWhatARunPrints() throws IOException {
    Path input = write("in.jsonl", List.of(
        "{\"type\": \"task\", \"key\": \"n1/ok\", \"value\": {\"ncpus\": 1}}",
        GOOD_SAMPLE,
        "{\"type\": \"sample\", \"topic\": \"samples\", \"key\": \"n1/ok\", \"value\": null}",
        "{\"key\": \"n1/ok\", \"value\": {\"ncpus\": 1}}",
        "{\"type\": \"task\", \"key\": \"n1/x\", \"value\": {\"ncpus\": 1}",
        "{\"type\": \"pool\", \"key\": \"p\", \"value\": {\"limit_cpu\": NaN}}"));
    Run run = quotaflow("simulate", "--input", input.toString(), "--output", dir.resolve("out.jsonl").toString());
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.err()).isEqualTo(blockAfter(doc(), "A line that cannot be used"));
  }

  @Test
  void anUnknownTopLevelKeyRejectsTheLineWithExitCode3() throws IOException {
    Run run = withThirdLine("{\"type\": \"sample\", \"topic\": \"samples\", \"key\": \"n1/ok\", \"value\": null}");
    assertThat(run.exitCode()).isEqualTo(SimulateCommand.LINES_REJECTED).isEqualTo(3);
    assertThat(run.errLines()).containsExactly(
        "quotaflow simulate: line 3: unknown key \"topic\": a line has \"type\", \"key\", \"value\" and optionally \"ts_ms\"",
        "quotaflow simulate: 4 lines, 2 records in, 1 records out, 1 lines rejected");
  }

  @Test
  void aMissingTypeIsOneLine() throws IOException {
    Run run = withThirdLine("{\"key\": \"n1/ok\", \"value\": {\"ncpus\": 1}}");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.errLines()).first().isEqualTo(
        "quotaflow simulate: line 3: \"type\" is missing: expected cluster, pool, task, node, sample or result");
  }

  @Test
  void malformedJsonIsOneLineWithoutTheParsersInternals() throws IOException {
    Run run = withThirdLine("{\"type\": \"task\", \"key\": \"n1/x\", \"value\": {\"ncpus\": 1}");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.errLines()).first().isEqualTo(
        "quotaflow simulate: line 3: not valid JSON: the line ends inside an object, array or string");

    run = withThirdLine("{\"type\": task}");
    assertThat(run.errLines()).first().isEqualTo("quotaflow simulate: line 3: not valid JSON at column 10:"
        + " Unrecognized token 'task': was expecting (JSON String, Number, Array, Object or token 'null', 'true' or 'false')");

    run = withThirdLine("{\"type\": \"task\", \"type\": \"pool\"}");
    assertThat(run.errLines()).first().isEqualTo("quotaflow simulate: line 3: not valid JSON at column 24: Duplicate field 'type'");
    assertThat(run.err()).doesNotContain("Source:").doesNotContain("com.fasterxml").doesNotContain("\tat ");
  }

  @Test
  void nanAndInfinityAreRefusedNamingTheField() throws IOException {
    Run run = withThirdLine("{\"type\": \"pool\", \"key\": \"p\", \"value\": {\"limit_cpu\": NaN}}");
    assertThat(run.exitCode()).isEqualTo(3);
    assertThat(run.errLines()).first().isEqualTo("quotaflow simulate: line 3: field limit_cpu: expected a finite number, got NaN");

    run = withThirdLine("{\"type\": \"pool\", \"key\": \"p\", \"value\": {\"weight\": Infinity}}");
    assertThat(run.errLines()).first().isEqualTo("quotaflow simulate: line 3: field weight: expected a finite number, got Infinity");

    run = withThirdLine("{\"type\": \"sample\", \"key\": \"n1/ok\", \"value\": {\"ts_ms\": 1, \"cpu_usage_usec\": -Infinity,"
        + " \"memory_bytes\": 0}}");
    assertThat(run.errLines()).first().isEqualTo(
        "quotaflow simulate: line 3: field cpu_usage_usec: expected an integer, got number -Infinity");
  }

  @Test
  void anOutputThatIsADirectoryIsAUsageErrorBeforeAnythingRuns() throws IOException {
    Path input = write("in.jsonl", List.of(GOOD_SAMPLE));
    Run run = quotaflow("simulate", "--input", input.toString(), "--output", dir.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).containsExactly("quotaflow simulate: --output " + dir + ": is a directory");
  }

  @Test
  void anOutputInAMissingDirectoryOrUnderAFileIsAUsageError() throws IOException {
    Path input = write("in.jsonl", List.of(GOOD_SAMPLE));
    Path missing = dir.resolve("nope").resolve("out.jsonl");
    Run run = quotaflow("simulate", "--input", input.toString(), "--output", missing.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).containsExactly("quotaflow simulate: --output " + missing + ": no such directory " + dir.resolve("nope"));

    Path underFile = input.resolve("out.jsonl");
    run = quotaflow("simulate", "--input", input.toString(), "--output", underFile.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).containsExactly("quotaflow simulate: --output " + underFile + ": " + input + " is not a directory");
  }

  @Test
  void theInputFileAsOutputIsAUsageErrorAndTheInputIsKept() throws IOException {
    Path input = write("in.jsonl", List.of(GOOD_SAMPLE));
    Run run = quotaflow("simulate", "--input", input.toString(), "--output", input.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).containsExactly("quotaflow simulate: --output " + input + ": is the --input file");
    assertThat(Files.readString(input)).isEqualTo(GOOD_SAMPLE + "\n");
  }

  @Test
  void anOutputInAReadOnlyDirectoryIsAUsageError() throws IOException {
    Path input = write("in.jsonl", List.of(GOOD_SAMPLE));
    Path readOnly = Files.createDirectory(dir.resolve("ro"));
    Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
    try {
      assumeFalse(Files.isWritable(readOnly), "permissions bind this user (root writes anywhere)");
      Path output = readOnly.resolve("out.jsonl");
      Run run = quotaflow("simulate", "--input", input.toString(), "--output", output.toString());
      assertThat(run.exitCode()).isEqualTo(2);
      assertThat(run.errLines()).containsExactly("quotaflow simulate: --output " + output + ": not writable (permission denied)");
    } finally {
      Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
  }

  @Test
  void aPermissionDeniedOutputIsSaidSo() {
    Path output = Path.of("/srv/out.jsonl");
    assertThat(SimulateFiles.outputProblem(output, new java.nio.file.AccessDeniedException(output.toString())))
        .isEqualTo("not writable (permission denied)");
  }

  @Test
  void aMissingInputOrABadFlagIsAUsageError() throws IOException {
    Path missing = dir.resolve("missing.jsonl");
    Run run = quotaflow("simulate", "--input", missing.toString(), "--output", dir.resolve("out.jsonl").toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).containsExactly("quotaflow simulate: --input " + missing + ": no such file");

    run = quotaflow("simulate", "--input", dir.toString(), "--output", dir.resolve("out.jsonl").toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).containsExactly("quotaflow simulate: --input " + dir + ": is a directory");

    run = quotaflow("simulate", "--input", missing.toString(), "--output", "-", "--speed", "2");
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.errLines()).first().isEqualTo("Unknown options: '--speed', '2'");
  }

  @Test
  void anInputThatFailsWhileBeingReadIsARuntimeFailure() {
    // Opening /proc/self/mem succeeds; reading its first page (never mapped) fails with EIO.
    assumeTrue(Files.isReadable(Path.of("/proc/self/mem")), "Linux /proc");
    Run run = quotaflow("simulate", "--input", "/proc/self/mem", "--output", dir.resolve("out.jsonl").toString());
    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.errLines()).containsExactly("quotaflow simulate: cannot read --input /proc/self/mem (Input/output error)");
  }

  @Test
  void helpListsTheExitCodes() {
    Run run = quotaflow("simulate", "--help");
    assertThat(run.exitCode()).isZero();
    assertThat(run.out()).contains("Exit codes:%n  0   every line was used".formatted())
        .contains("  1   a runtime failure")
        .contains("  2   a usage error")
        .contains("  3   some lines were rejected");
  }

  @Test
  void valuesAsAvrosOwnJsonEncodingPrintsThemGiveTheSameDecisionsAsPlainJson() throws IOException {
    List<SpecificRecord> specs = new ArrayList<>();
    List<SpecificRecord> samples = new ArrayList<>();
    for (String task : List.of("a", "b")) {
      specs.add(TaskSpec.newBuilder().setNode("n1").setTask(task).setNcpus(1).setCpuLimit(1.5)
          .setMemoryNormalBytes(100L << 20).build());
    }
    long[][] anonMb = {{120, 100}, {120, 120}, {100, 120}};
    for (int s = 0; s < anonMb.length; s++) {
      for (int t = 0; t < 2; t++) {
        long anon = anonMb[s][t];
        samples.add(CgroupSample.newBuilder().setNode("n1").setTask(t == 0 ? "a" : "b").setTsMs(T0 + s * 1000L)
            .setCpuUsageUsec(0).setMemoryBytes((anon + 10) << 20).setMemoryAnonBytes(anon << 20).setCpuQuotaCores(1.5).build());
      }
    }
    List<String> avro = new ArrayList<>();
    List<String> plain = new ArrayList<>();
    specs.forEach(spec -> {
      avro.add(line("task", spec, avroJson(spec)));
      plain.add(line("task", spec, JsonRecords.toJson((org.apache.avro.generic.GenericRecord) spec).toString()));
    });
    samples.forEach(sample -> {
      avro.add(line("sample", sample, avroJson(sample)));
      plain.add(line("sample", sample, JsonRecords.toJson((org.apache.avro.generic.GenericRecord) sample).toString()));
    });
    assertThat(avro.get(0)).as("Avro's JSON wraps a union's value").contains("\"memory_normal_bytes\":{\"long\":104857600}");
    assertThat(avro.get(2)).contains("\"cpu_quota_cores\":{\"double\":1.5}");

    Run avroRun = quotaflow("simulate", "--input", write("avro.jsonl", avro).toString(), "--output", dir.resolve("a.jsonl").toString());
    Run plainRun = quotaflow("simulate", "--input", write("plain.jsonl", plain).toString(), "--output", dir.resolve("p.jsonl").toString());
    assertThat(avroRun.exitCode()).as(avroRun.err()).isZero();
    assertThat(plainRun.exitCode()).as(plainRun.err()).isZero();
    String decisions = Files.readString(dir.resolve("a.jsonl"));
    assertThat(decisions).contains("\"action\":\"FREEZE\",\"reason\":\"PEAK_SLOT_BUSY\"");
    assertThat(decisions).isEqualTo(Files.readString(dir.resolve("p.jsonl")));
  }

  private static String line(String type, SpecificRecord record, String valueJson) {
    String key = record.get(record.getSchema().getField("node").pos()) + "/" + record.get(record.getSchema().getField("task").pos());
    return "{\"type\": \"" + type + "\", \"key\": \"" + key + "\", \"value\": " + valueJson + "}";
  }

  /** The value as Avro's own JSON encoder writes it (and kafka-avro-console-consumer prints it). */
  private static String avroJson(SpecificRecord record) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      JsonEncoder encoder = EncoderFactory.get().jsonEncoder(record.getSchema(), bytes);
      new SpecificDatumWriter<SpecificRecord>(record.getSchema()).write(record, encoder);
      encoder.flush();
      return bytes.toString(StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
