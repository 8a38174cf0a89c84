package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.process.ProcessCommandLine;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.WithKafka;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

@WithKafka
class RegistryCommandTest {
  private static final Pattern URL = Pattern.compile("Schema registry\\s+(\\S+)");

  private record Running(RegistryCommand command, Future<Integer> exit, StringWriter out, String url) {
    int stop() throws Exception {
      command.requestStop();
      return exit.get(60, TimeUnit.SECONDS);
    }
  }

  @Test
  void schemasRegisteredOnAnExternalKafkaOutliveTheRegistryProcess(KafkaEnv kafka) throws Exception {
    Schema schema = SchemaBuilder.record("Probe").namespace("io.quotaflow.test").fields().requiredString("node").endRecord();
    String topic = "_schemas_registry_command_test";
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Running first = start(thread, kafka, topic);
      int id = SchemaRegistryClients.create(first.url()).register("probe-value", schema);
      assertThat(first.stop()).isZero();
      assertThat(first.out().toString()).contains("schemas on " + kafka.bootstrapServers()).contains("Stopped.");

      Running second = start(thread, kafka, topic);
      try {
        assertThat(SchemaRegistryClients.create(second.url()).getId("probe-value", schema)).isEqualTo(id);
      } finally {
        assertThat(second.stop()).isZero();
      }
    } finally {
      thread.shutdownNow();
    }
  }

  @Test
  void anUnreachableKafkaFailsWithAMessage() {
    StringWriter err = new StringWriter();
    int exit = ProcessCommandLine.of(new RegistryCommand()).setErr(new PrintWriter(err, true))
        .execute("--bootstrap=localhost:1", "--port=0", "--host=localhost");
    assertThat(exit).isEqualTo(1);
    assertThat(err.toString()).startsWith("quotaflow registry: ").doesNotContain("\tat ");
  }

  private static Running start(ExecutorService thread, KafkaEnv kafka, String topic) throws Exception {
    RegistryCommand command = new RegistryCommand();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(command).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    Future<Integer> exit = thread.submit(() -> line.execute("--bootstrap=" + kafka.bootstrapServers(),
        "--port=0", "--host=localhost", "--topic=" + topic));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    Matcher url = URL.matcher("");
    // Polls the command's output until it printed its address (or ended, or the deadline passed).
    while (!url.reset(out.toString()).find()) {
      if (exit.isDone() || System.nanoTime() > deadline) {
        throw new AssertionError("registry command printed no address; out:\n" + out + "\nerr:\n" + err
            + (exit.isDone() ? "\nexit: " + exit.get() : ""));
      }
      java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    return new Running(command, exit, out, url.group(1));
  }
}
