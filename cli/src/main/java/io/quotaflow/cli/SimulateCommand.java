package io.quotaflow.cli;

import io.quotaflow.process.ProcessCommandLine;
import io.quotaflow.streams.simulate.Simulator;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code quotaflow simulate}: the real topology offline, JSON lines in and out (docs/simulate.md). */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    description = {
        "Run the real streams topology offline (one partition, no broker) over recorded or made-up records.",
        "Input: one JSON object a line, {\"type\": \"cluster\"|\"pool\"|\"task\"|\"node\"|\"sample\"|\"result\", \"key\": ..., \"value\": {...}},"
            + " in time order; values as plain JSON or as kafka-avro-console-consumer prints them."
            + " Output: one line per record produced, {\"topic\", \"key\", \"ts_ms\", \"value\"}."},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {
        "0:every line was used",
        "1:a runtime failure: the input could not be read to its end, or the output not written",
        "2:a usage error: a bad flag, an input that cannot be read, an output path that cannot be written",
        "3:some lines were rejected (each reported on standard error with its line number); the others were"
            + " simulated and their records written"})
final class SimulateCommand implements Callable<Integer> {

  /** Only simulate has it: a run that went through but skipped lines is neither a success nor a usage error. */
  static final int LINES_REJECTED = 3;

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  @Option(names = "--input", paramLabel = "FILE|-", required = true, description = "JSON lines to read ('-' for standard input).")
  String input;

  @Option(names = "--output", paramLabel = "FILE|-", required = true, description = "Where to write the produced records as JSON lines ('-' for standard output).")
  String output;

  @Option(names = "--gate-tables", description = "Also write out the gate tables the app publishes for the enforcers'"
      + " memory reflex (topic gate-tables: one per node whenever it changes).")
  boolean gateTables;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Simulator.Summary summary;
    // Both paths are opened before the topology starts: a bad path is a usage error, reported at once.
    try (BufferedReader in = "-".equals(input) ? new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
            : SimulateFiles.openInput(input);
        PrintWriter out = "-".equals(output) ? unclosed(spec.commandLine().getOut())
            : new PrintWriter(SimulateFiles.openOutput(output, input));
        Simulator simulator = new Simulator(gateTables)) {
      summary = simulator.run(in, out);
      if (out.checkError()) { // PrintWriter keeps write errors to itself
        throw new CliException("cannot write --output " + output);
      }
    } catch (IOException | UncheckedIOException e) {
      Throwable cause = e instanceof UncheckedIOException unchecked ? unchecked.getCause() : e;
      throw new CliException("cannot read --input " + input + " (" + cause.getMessage() + ")", cause);
    }
    String prefix = "quotaflow " + spec.name() + ": ";
    summary.errors().forEach(e -> err.println(prefix + "line " + e.line() + ": " + e.message()));
    err.printf("%s%d lines, %d records in, %d records out, %d lines rejected%n",
        prefix, summary.linesRead(), summary.recordsIn(), summary.recordsOut(),
        summary.errors().stream().mapToLong(Simulator.LineError::line).distinct().count());
    err.flush();
    return summary.errors().isEmpty() ? ProcessCommandLine.OK : LINES_REJECTED;
  }

  /** Standard output, flushed but left open when the run's writer is closed. */
  private static PrintWriter unclosed(PrintWriter stdout) {
    return new PrintWriter(stdout) {
      @Override
      public void close() {
        flush();
      }
    };
  }
}
