package io.quotaflow.enforcer;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.ops.OpsServer;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.KafkaException;

/**
 * The enforcer as a process, for its own {@code main} and {@code quotaflow enforcer}: opens the
 * cgroups, starts the {@link Enforcer} and the /metrics and /health endpoint, and runs until
 * Ctrl-C (SIGTERM) or a fatal error, stopping cleanly either way.
 */
public final class EnforcerProcess {

  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(60);

  private EnforcerProcess() {}

  /** Runs until stopped; returns the exit code (0 after Ctrl-C, 1 on an error, 2 on bad flags). */
  public static int run(EnforcerOptions options, Map<String, Object> clientProperties, Topics topics,
      PrintStream out, PrintStream err) throws InterruptedException {
    Enforcer.Settings settings;
    try {
      settings = options.settings(clientProperties);
    } catch (IllegalArgumentException e) {
      err.println("quotaflow enforcer: " + e.getMessage());
      return 2;
    }
    Cgroups cgroups;
    try {
      cgroups = Cgroups.open(options.cgroupConfig());
    } catch (IOException | IllegalArgumentException e) {
      err.println("quotaflow enforcer: cannot use the cgroups: " + e.getMessage());
      return 1;
    }
    PrometheusMeterRegistry meters = OpsServer.newRegistry("enforcer");
    Enforcer enforcer;
    try {
      enforcer = Enforcer.start(settings, cgroups, topics, meters);
    } catch (IOException | KafkaException e) {
      err.println("quotaflow enforcer: cannot start: " + e.getMessage());
      return 1;
    }
    CountDownLatch stop = new CountDownLatch(1);
    CountDownLatch stopped = new CountDownLatch(1);
    // Ctrl-C: stop after the decision in hand, and hold the JVM until the results are flushed.
    Thread hook = new Thread(() -> {
      stop.countDown();
      try {
        stopped.await(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "quotaflow-enforcer-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try (OpsServer ops = OpsServer.start(options.httpHost(), options.httpPort(), meters, enforcer::health)) {
      out.printf("quotaflow enforcer: node %s%s, %s; state file %s; /metrics and /health on port %d%n",
          settings.node(), settings.dryRun() ? " (--dry-run)" : "", cgroups.describe(),
          settings.stateFile().toAbsolutePath(), ops.port());
      out.flush();
      while (!stop.await(1, TimeUnit.SECONDS)) {
        if (enforcer.awaitStopped(Duration.ZERO)) {
          break; // it stopped on its own: an error
        }
      }
    } catch (UncheckedIOException e) {
      err.println("quotaflow enforcer: " + e.getMessage());
      return 1;
    } finally {
      enforcer.close();
      stopped.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is exiting: the hook is running and waits for `stopped`
      }
    }
    if (enforcer.failure().isPresent()) {
      err.println("quotaflow enforcer: stopped on an error: " + enforcer.failure().get());
      return 1;
    }
    out.println("quotaflow enforcer: stopped.");
    return 0;
  }
}
