package io.quotaflow.cli;

import io.quotaflow.streams.simulate.Simulator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code quotaflow simulate}: the real topology offline, JSON lines in and out (docs/simulate.md). */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = {
        "Run the real streams topology offline (one partition, no broker) over recorded or made-up records.",
        "Input: one JSON object a line, {\"type\": \"cluster\"|\"pool\"|\"task\"|\"node\"|\"sample\", \"key\": ..., \"value\": {...}},"
            + " in time order. Output: one line per record produced, {\"topic\", \"key\", \"ts_ms\", \"value\"}."})
final class SimulateCommand implements Callable<Integer> {

  @Option(names = "--input", paramLabel = "FILE|-", required = true, description = "JSON lines to read ('-' for standard input).")
  String input;

  @Option(names = "--output", paramLabel = "FILE|-", required = true, description = "Where to write the produced records as JSON lines ('-' for standard output).")
  String output;

  @Override
  public Integer call() throws IOException {
    try (BufferedReader in = "-".equals(input) ? new BufferedReader(new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8))
            : Files.newBufferedReader(Path.of(input), StandardCharsets.UTF_8);
        PrintWriter out = "-".equals(output) ? new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8))
            : new PrintWriter(Files.newBufferedWriter(Path.of(output), StandardCharsets.UTF_8));
        Simulator simulator = new Simulator()) {
      Simulator.Summary summary = simulator.run(in, out);
      summary.errors().forEach(e -> System.err.println("line " + e.line() + ": " + e.message()));
      System.err.printf("simulate: %d lines, %d records in, %d records out, %d problems%n",
          summary.linesRead(), summary.recordsIn(), summary.recordsOut(), summary.errors().size());
      return summary.errors().isEmpty() ? 0 : 2;
    } catch (NoSuchFileException e) {
      System.err.println("simulate: no such file: " + e.getFile());
      return 1;
    }
  }
}
