package io.quotaflow.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.quotaflow.testharness.ExternalCommand;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.WithKafka;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * examples/python/read_samples.py, run as a data team would run it (Debian's python3 with
 * python3-confluent-kafka and python3-avro), decodes every sample our serializer wrote. Skipped,
 * saying why, where those packages are not installed.
 */
@WithKafka
class PythonExampleTest {
  private static final String PYTHON = "/usr/bin/python3";
  private static final int SAMPLES = 6;

  @Test
  void pythonExamplePrintsEverySampleDecoded(KafkaEnv kafka) throws Exception {
    Path examples = Path.of(System.getProperty("quotaflow.examples.dir", "."));
    Path work = Files.createDirectories(Path.of(System.getProperty("quotaflow.examples.work", "target/examples-work")));
    ExternalCommand.Result modules = probe(work);
    assumeTrue(modules != null && modules.exitCode() == 0,
        PYTHON + " cannot import confluent_kafka and avro (apt-get install python3-confluent-kafka python3-avro): "
            + (modules == null ? PYTHON + " not found" : modules.stderr().strip()));

    WrittenSamples written = WrittenSamples.write(kafka, "python", SAMPLES);
    ExternalCommand.Result read = ExternalCommand.run(work, Duration.ofMinutes(2), List.of(PYTHON,
        examples.resolve("python/read_samples.py").toAbsolutePath().toString(),
        "--bootstrap", kafka.bootstrapServers(), "--registry", kafka.registryUrl(), "--topic", written.topic(),
        "--group", "example-python-" + written.topic(), "--max-records", Integer.toString(SAMPLES), "--timeout-s", "90"));

    assertThat(read.exitCode()).as(read.describe()).isZero();
    written.assertPrinted(read.stdout(), read.describe());
  }

  private static ExternalCommand.Result probe(Path work) {
    try {
      return ExternalCommand.run(work, Duration.ofSeconds(30), List.of(PYTHON, "-c", "import confluent_kafka, avro.io"));
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }
}
