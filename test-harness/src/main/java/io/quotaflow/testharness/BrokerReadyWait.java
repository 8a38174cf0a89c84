package io.quotaflow.testharness;

import java.time.Duration;
import org.testcontainers.containers.ContainerLaunchException;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;

/**
 * Waits until {@code quotaflow broker} in the container prints its "Ready in" line, and gives up at
 * once, with the container's output, when the process exits instead: a log wait alone would sit out
 * its whole timeout on a broker that refused its configuration in the first second.
 */
final class BrokerReadyWait extends AbstractWaitStrategy {
  /** BrokerCommand prints this once both Kafka and the registry answer. */
  static final String READY_LINE = "Ready in ";
  private static final Duration POLL = Duration.ofMillis(250);

  @Override
  protected void waitUntilReady() {
    long deadline = System.nanoTime() + startupTimeout.toNanos();
    while (true) {
      String logs = waitStrategyTarget.getLogs();
      if (logs.contains(READY_LINE)) {
        return;
      }
      if (!waitStrategyTarget.isRunning()) {
        throw new ContainerLaunchException("quotaflow broker exited before it was ready; its output:\n" + tail(logs));
      }
      if (System.nanoTime() > deadline) {
        throw new ContainerLaunchException("quotaflow broker printed no \"" + READY_LINE + "\" line within "
            + startupTimeout.toSeconds() + " s; its output:\n" + tail(logs));
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ContainerLaunchException("interrupted while waiting for quotaflow broker", e);
      }
    }
  }

  /** The end of the output, where the reason is; a stack trace can run to hundreds of lines. */
  private static String tail(String logs) {
    int max = 4000;
    return logs.length() <= max ? logs : "..." + logs.substring(logs.length() - max);
  }
}
