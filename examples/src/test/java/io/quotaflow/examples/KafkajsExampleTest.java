package io.quotaflow.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quotaflow.testharness.ExternalCommand;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.WithKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * examples/kafkajs/read-samples.js, installed from its committed lock file with npm into target/,
 * decodes every sample our serializer wrote. Skipped, saying why, where node or npm is missing or
 * the install fails (no registry reachable).
 */
@WithKafka
class KafkajsExampleTest {
  private static final int SAMPLES = 6;
  private static final List<String> FILES = List.of("package.json", "package-lock.json", "read-samples.js");

  @Test
  void kafkajsExamplePrintsEverySampleDecoded(KafkaEnv kafka) throws Exception {
    assumeTrue(ExternalCommand.available("node"), "node is not installed or not on the PATH: the kafkajs example needs Node.js 18+");
    assumeTrue(ExternalCommand.available("npm"), "npm is not installed or not on the PATH: the kafkajs example is installed with npm");
    Path work = installed();

    WrittenSamples written = WrittenSamples.write(kafka, "kafkajs", SAMPLES);
    ExternalCommand.Result read = ExternalCommand.run(work, Duration.ofMinutes(2), List.of("node", "read-samples.js",
        "--bootstrap", kafka.bootstrapServers(), "--registry", kafka.registryUrl(), "--topic", written.topic(),
        "--group", "example-kafkajs-" + written.topic(), "--max-records", Integer.toString(SAMPLES), "--timeout-ms", "90000"));

    assertThat(read.exitCode()).as(read.describe()).isZero();
    written.assertPrinted(read.stdout(), read.describe());
  }

  /** Copies the example into the build directory and installs its lock file's packages there. */
  private static Path installed() throws Exception {
    Path source = Path.of(System.getProperty("quotaflow.examples.dir", ".")).resolve("kafkajs");
    Path work = Files.createDirectories(
        Path.of(System.getProperty("quotaflow.examples.work", "target/examples-work")).resolve("kafkajs"));
    for (String file : FILES) {
      Files.copy(source.resolve(file), work.resolve(file), StandardCopyOption.REPLACE_EXISTING);
    }
    ExternalCommand.Result install = ExternalCommand.run(work, Duration.ofMinutes(5),
        List.of("npm", "install", "--no-audit", "--no-fund", "--loglevel=error"));
    assumeTrue(install.exitCode() == 0, "npm install of the kafkajs example failed (is the npm registry reachable?): "
        + install.describe());
    return work;
  }
}
