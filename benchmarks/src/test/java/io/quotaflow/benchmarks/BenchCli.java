package io.quotaflow.benchmarks;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** Runs {@code quotaflow bench ARGS} in the test's JVM and keeps what it printed on each stream. */
final class BenchCli {

  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();

  int run(String... args) {
    CommandLine line = new CommandLine(new BenchCommand()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    return line.execute(args);
  }
}
