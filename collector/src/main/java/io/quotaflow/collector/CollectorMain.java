package io.quotaflow.collector;

import io.quotaflow.process.ProcessCommandLine;
import io.quotaflow.schemas.Topics;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The collector as a process of its own, without the {@code quotaflow} command:
 * {@code java -cp quotaflow.jar io.quotaflow.collector.CollectorMain --node n1 --bootstrap ...}.
 * It runs the same picocli command as {@code quotaflow collector} ({@link CollectorCommand}: same
 * flags, environment variables, help and exit codes) until SIGTERM or Ctrl-C.
 */
public final class CollectorMain {

  private CollectorMain() {}

  public static void main(String[] args) {
    ProcessCommandLine.main(new CollectorCommand(), args);
  }

  /**
   * Starts a collector and runs it until the JVM is asked to stop (SIGTERM, Ctrl-C), then stops
   * it cleanly before the JVM exits. A start-up failure is printed as one line; returns the exit code.
   */
  public static int runUntilStopped(CollectorSettings settings, Map<String, Object> clientProperties, Topics topics,
      PrintWriter out, PrintWriter err) {
    CountDownLatch stopRequested = new CountDownLatch(1);
    CountDownLatch stopped = new CountDownLatch(1);
    // Registered before start, so a signal during start-up also waits for the clean stop.
    Thread hook = new Thread(() -> {
      stopRequested.countDown();
      try {
        stopped.await(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "quotaflow-collector-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try (Collector collector = Collector.start(settings, clientProperties, topics)) {
      out.printf("Collector for node %s: sampling every %s, publishing to %s; /metrics and /health on %s:%d%n",
          settings.node(), Periods.format(settings.period()), topics.samples().name(), settings.opsHost(),
          collector.opsPort());
      out.flush();
      stopRequested.await();
      return 0;
    } catch (CollectorException e) {
      err.println("quotaflow collector: " + e.getMessage());
      err.flush();
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    } finally {
      stopped.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is exiting: the hook runs and waits for `stopped`
      }
    }
  }
}
