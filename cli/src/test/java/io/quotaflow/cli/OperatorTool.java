package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.schemas.TopicAdmin;
import io.quotaflow.schemas.Topics;
import io.quotaflow.testharness.KafkaEnv;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine;

/** Runs an operator command ({@code spec set}, {@code cluster set}, …) against a test broker and topic set, expecting success. */
public record OperatorTool(KafkaEnv kafka, String topicPrefix, int partitions) {

  /** What a command printed and how it exited. */
  record Run(int exitCode, String out, String err) {}

  /**
   * Creates the catalogue's missing topics, as {@code quotaflow streams} does when it starts: the
   * operator tools create none. Returns this tool.
   */
  public OperatorTool withTopics() {
    Topics topics = Topics.create(new Topics.Settings(topicPrefix, partitions, true), kafka.registryClient());
    try (Admin admin = kafka.admin()) {
      TopicAdmin.createMissing(admin, topics.all(), Optional.of((short) 1));
    }
    return this;
  }

  public void run(List<String> args) {
    assertThat(exitCode(args)).as("quotaflow %s", args).isZero();
  }

  public void run(String... args) {
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
    return all.toArray(String[]::new);
  }
}
