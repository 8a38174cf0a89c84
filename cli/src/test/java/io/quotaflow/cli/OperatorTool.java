package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.testharness.KafkaEnv;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/** Runs an operator command ({@code spec set}, {@code cluster set}, …) against a test broker and topic set, expecting success. */
record OperatorTool(KafkaEnv kafka, String topicPrefix, int partitions) {

  /** What a command printed and how it exited. */
  record Run(int exitCode, String out, String err) {}

  void run(List<String> args) {
    assertThat(exitCode(args)).as("quotaflow %s", args).isZero();
  }

  void run(String... args) {
    run(List.of(args));
  }

  int exitCode(List<String> args) {
    return QuotaflowCli.run(withConnection(args));
  }

  /** Runs the command with its standard output and error captured (commands that print through picocli). */
  Run capture(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(new QuotaflowCli()).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    int code = QuotaflowCli.execute(line, withConnection(List.of(args)));
    return new Run(code, out.toString(), err.toString());
  }

  private String[] withConnection(List<String> args) {
    List<String> all = new ArrayList<>(args);
    all.addAll(List.of("--bootstrap", kafka.bootstrapServers(), "--registry", kafka.registryUrl(), "--topic-prefix", topicPrefix));
    // profile show creates no topic, so it has no --partitions to take.
    if (!args.get(0).equals("profile")) {
      all.addAll(List.of("--partitions", String.valueOf(partitions)));
    }
    return all.toArray(String[]::new);
  }
}
