package io.quotaflow.cli.reliability;

import io.quotaflow.cgroups.CgroupSandbox;
import io.quotaflow.cli.QuotaflowCli;
import io.quotaflow.testharness.ChildJvm;
import io.quotaflow.testharness.KafkaEnv;
import io.quotaflow.testharness.Scrape;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code quotaflow} processes one reliability test runs, each its own JVM ({@link ChildJvm}),
 * as they run on a node: so that SIGKILL ends one of them and nothing of it survives. Whatever still
 * runs is killed by its own handle on {@link #close()}, the last started first.
 */
final class CliProcesses implements AutoCloseable {

  /** How long a child may take to say it is ready: JVM start and Kafka clients on two shared cores. */
  static final Duration START_PATIENCE = Duration.ofSeconds(90);

  /** The line every node process (collector, enforcer, streams app) prints once it serves /metrics. */
  private static final Pattern OPS_PORT = Pattern.compile("/metrics[^\\n]*? on (?:port |[^:\\s]+:)(\\d+)");

  private final Path logDir;
  private final List<ChildJvm> started = new ArrayList<>();

  CliProcesses(Path logDir) {
    this.logDir = logDir;
  }

  /** Starts {@code quotaflow args} in a new JVM with the default small heap. */
  ChildJvm start(String name, List<String> args) {
    return start(name, ChildJvm.DEFAULT_JVM_OPTIONS, args);
  }

  ChildJvm start(String name, List<String> jvmOptions, List<String> args) {
    try {
      ChildJvm child = ChildJvm.start(name, logDir, jvmOptions, QuotaflowCli.class.getName(), args, Map.of());
      started.add(child);
      return child;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name, e);
    }
  }

  /** Every child started so far, first started first. */
  List<ChildJvm> started() {
    return List.copyOf(started);
  }

  /** The flags that point a command at a broker, a registry and a topic set. */
  static List<String> connection(KafkaEnv kafka, String topicPrefix) {
    return List.of("--bootstrap", kafka.bootstrapServers(), "--registry", kafka.registryUrl(), "--topic-prefix", topicPrefix);
  }

  /**
   * The flags that make a collector or enforcer work on the sandbox's groups: the child is in the same
   * groups as this JVM, so the sandbox's parent, named under its own group, is the same directory.
   */
  static List<String> node(String node, CgroupSandbox sandbox) {
    return List.of("--node", node, "--layout", "v1", "--cgroup-root", sandbox.config().root().toString(),
        "--parent", sandbox.parentName());
  }

  /** Waits until a node process serves /metrics (its start-up line) and returns that port. */
  static int opsPort(ChildJvm child) {
    return Integer.parseInt(child.awaitOutput(OPS_PORT, START_PATIENCE).group(1));
  }

  /** A scrape of a child's /metrics; fails with the child's output when it does not answer. */
  static Scrape scrape(ChildJvm child, int port) {
    try {
      return Scrape.of(port);
    } catch (IOException e) {
      throw new AssertionError("no /metrics from " + child.name() + ": " + e + "\n" + child.tail(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Every child's output end, for a failure message. */
  String tails() {
    StringBuilder text = new StringBuilder();
    started.forEach(child -> text.append('\n').append(child.tail()));
    return text.toString();
  }

  @Override
  public void close() {
    List<ChildJvm> reversed = new ArrayList<>(started);
    Collections.reverse(reversed);
    reversed.forEach(ChildJvm::close);
  }
}
