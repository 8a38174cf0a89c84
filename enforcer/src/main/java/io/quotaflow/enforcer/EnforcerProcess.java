package io.quotaflow.enforcer;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.cgroups.CgroupConfig;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.process.KafkaRefusal;
import io.quotaflow.process.ProcessLifecycle;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.Topics;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.common.KafkaException;

/**
 * The enforcer as a process, for its own {@code main} and {@code quotaflow enforcer}: opens the
 * cgroups, starts the {@link Enforcer} and the /metrics and /health endpoint, and runs until
 * Ctrl-C (SIGTERM), {@link #requestStop()} or a fatal error, stopping cleanly either way.
 */
public final class EnforcerProcess {

  /** Stopping finishes the decision in hand and flushes the results in flight. */
  private final ProcessLifecycle lifecycle = new ProcessLifecycle("enforcer", Duration.ofSeconds(60));

  /** Asks a running {@link #run} to stop, as Ctrl-C does. */
  public void requestStop() {
    lifecycle.requestStop();
  }

  /** Runs until stopped; returns the exit code (0 after a requested stop, 1 on an error, 2 on bad flags). */
  public int run(EnforcerOptions options, String node, CgroupConfig cgroupConfig, Map<String, Object> clientProperties,
      Topics topics, PrintWriter out, PrintWriter err) throws InterruptedException {
    try (ProcessLifecycle.Running running = lifecycle.begin()) {
      try {
        return runUntilStopped(options, node, cgroupConfig, clientProperties, topics, out, err);
      } finally {
        out.flush(); // before the hook lets the JVM exit
        err.flush();
      }
    }
  }

  private int runUntilStopped(EnforcerOptions options, String node, CgroupConfig cgroupConfig,
      Map<String, Object> clientProperties, Topics topics, PrintWriter out, PrintWriter err) throws InterruptedException {
    Enforcer.Settings settings;
    Cgroups cgroups;
    try {
      settings = options.settings(node, clientProperties);
      cgroups = Cgroups.open(cgroupConfig);
    } catch (IllegalArgumentException e) {
      err.println("quotaflow enforcer: " + e.getMessage());
      return 2;
    } catch (IOException e) {
      err.println("quotaflow enforcer: cannot use the cgroups: " + e.getMessage());
      return 1;
    }
    PrometheusMeterRegistry meters = OpsServer.newRegistry("enforcer");
    Enforcer enforcer;
    try {
      enforcer = Enforcer.start(settings, cgroups, topics, meters);
    } catch (IOException | KafkaException e) {
      err.println("quotaflow enforcer: cannot start: " + KafkaRefusal.describe(e, clientProperties).orElse(e.getMessage()));
      return 1;
    }
    try (OpsServer ops = OpsServer.start(options.httpHost(), options.httpPort(), meters, enforcer::health)) {
      out.printf("quotaflow enforcer: node %s%s on %s%nState file %s; /metrics and /health on port %d%n",
          settings.node(), settings.dryRun() ? " (--dry-run: writes nothing)" : "", cgroups.describe(),
          settings.stateFile().toAbsolutePath(), ops.port());
      out.flush();
      while (!lifecycle.awaitStopRequest(Duration.ofSeconds(1))) {
        if (enforcer.awaitStopped(Duration.ZERO)) {
          break; // it stopped on its own: an error
        }
      }
    } catch (UncheckedIOException e) {
      err.println("quotaflow enforcer: " + e.getMessage());
      return 1;
    } finally {
      enforcer.close();
    }
    if (enforcer.failure().isPresent()) {
      Throwable failure = enforcer.failure().get();
      err.println(KafkaRefusal.describe(failure, clientProperties).map(refusal -> "quotaflow enforcer: stopped: " + refusal)
          .orElse("quotaflow enforcer: stopped on an error: " + failure));
      return 1;
    }
    out.println("quotaflow enforcer: stopped.");
    return 0;
  }
}
