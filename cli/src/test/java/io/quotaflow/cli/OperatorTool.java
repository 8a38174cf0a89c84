package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.embedded.junit.KafkaEnv;
import java.util.ArrayList;
import java.util.List;

/** Runs an operator command ({@code spec set}, {@code cluster set}, …) against a test broker and topic set, expecting success. */
record OperatorTool(KafkaEnv kafka, String topicPrefix, int partitions) {

  void run(List<String> args) {
    assertThat(exitCode(args)).as("quotaflow %s", args).isZero();
  }

  void run(String... args) {
    run(List.of(args));
  }

  int exitCode(List<String> args) {
    List<String> all = new ArrayList<>(args);
    all.addAll(List.of("--bootstrap", kafka.bootstrapServers(), "--registry", kafka.registryUrl(),
        "--topic-prefix", topicPrefix, "--partitions", String.valueOf(partitions)));
    return QuotaflowCli.run(all.toArray(String[]::new));
  }
}
