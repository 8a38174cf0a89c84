package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.process.ProcessCommandLine;
import io.quotaflow.schemas.registry.SchemaRegistryClient;
import io.quotaflow.schemas.registry.SchemaRegistryClients;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BrokerCommandTest {
  private static final Pattern BOOTSTRAP = Pattern.compile("Kafka bootstrap\\s+(\\S+)");
  private static final Pattern REGISTRY = Pattern.compile("Schema registry\\s+(\\S+)");
  private static final Duration TIMEOUT = Duration.ofSeconds(120);

  /** A broker command running on a thread of the test, as {@code quotaflow broker} runs in its own JVM. */
  private record Running(BrokerCommand command, Future<Integer> exit, StringWriter out, String bootstrap, String registryUrl) {
    int stop() throws Exception {
      command.requestStop();
      return exit.get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  @Test
  void dataDirKeepsTopicsAndSchemaIdsAcrossRuns(@TempDir Path dataDir) throws Exception {
    Schema schema = SchemaBuilder.record("Probe").namespace("io.quotaflow.test").fields().requiredString("node").endRecord();
    ExecutorService thread = Executors.newSingleThreadExecutor();
    try {
      Running first = start(thread, "--port=0", "--registry-port=0", "--data-dir=" + dataDir);
      int id;
      try (Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, first.bootstrap()))) {
        admin.createTopics(List.of(new NewTopic("kept", 2, (short) 1))).all().get();
        id = SchemaRegistryClients.create(first.registryUrl()).register("kept-value", schema);
      }
      assertThat(first.out().toString()).contains("formatted now");
      assertThat(first.stop()).isZero();
      assertThat(first.out().toString()).contains("Stopped.");

      Running second = start(thread, "--port=0", "--registry-port=0", "--data-dir=" + dataDir);
      try (Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, second.bootstrap()))) {
        assertThat(admin.listTopics().names().get()).contains("kept");
        SchemaRegistryClient registry = SchemaRegistryClients.create(second.registryUrl());
        assertThat(registry.getId("kept-value", schema)).isEqualTo(id);
      } finally {
        assertThat(second.stop()).isZero();
      }
      assertThat(second.out().toString()).contains("formatted before, reused");
    } finally {
      thread.shutdownNow();
    }
  }

  @Test
  void aTakenPortIsRefusedWithAMessage() throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("localhost"))) {
      StringWriter err = new StringWriter();
      BrokerCommand command = new BrokerCommand();
      int exit = ProcessCommandLine.of(command).setErr(new PrintWriter(err, true)).execute("--port=" + taken.getLocalPort());
      assertThat(exit).isEqualTo(1);
      assertThat(err.toString()).contains("port " + taken.getLocalPort()).contains("--port").contains("in use");
    }
  }

  @Test
  void helpListsTheBrokerCommand() {
    StringWriter out = new StringWriter();
    int exit = new CommandLine(new QuotaflowCli()).setOut(new PrintWriter(out, true)).execute("--help");
    assertThat(exit).isZero();
    assertThat(out.toString()).contains("broker");
  }

  private static Running start(ExecutorService thread, String... args) throws Exception {
    BrokerCommand command = new BrokerCommand();
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(command).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    Future<Integer> exit = thread.submit(() -> line.execute(args));
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    Matcher bootstrap = BOOTSTRAP.matcher("");
    Matcher registry = REGISTRY.matcher("");
    // Polls the command's output until it printed both addresses (or ended, or the deadline passed).
    while (!(bootstrap.reset(out.toString()).find() && registry.reset(out.toString()).find())) {
      if (exit.isDone() || System.nanoTime() > deadline) {
        throw new AssertionError("broker command printed no addresses; out:\n" + out + "\nerr:\n" + err
            + (exit.isDone() ? "\nexit: " + exit.get() : ""));
      }
      java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    return new Running(command, exit, out, bootstrap.group(1), registry.group(1));
  }
}
