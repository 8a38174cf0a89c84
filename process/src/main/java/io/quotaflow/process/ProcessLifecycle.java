package io.quotaflow.process;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one way a Quotaflow process stops: a SIGTERM or Ctrl-C (or {@link #requestStop()}, as tests
 * and embedding code do) only asks the main thread to stop; the main thread does the graceful
 * stop itself (last commit, buffered records handed on, cgroups restored), and the JVM's shutdown
 * hook waits for it, at most {@code stopTimeout}, so a stop that hangs cannot keep the JVM alive.
 *
 * <pre>{@code
 * try (ProcessLifecycle.Running running = lifecycle.begin()) {  // hook registered before anything starts
 *   try (Component c = Component.start(...)) {
 *     lifecycle.awaitStopRequest();
 *   }                                                          // graceful stop, on the main thread
 * }                                                            // the hook may let the JVM exit now
 * }</pre>
 *
 * The command's exit code is as {@link ProcessCommandLine} documents it. After a signal the JVM
 * itself exits with 128 + the signal's number (143 for SIGTERM, 130 for Ctrl-C) once the hook
 * returns, whatever the command returned; the stop is graceful all the same.
 */
public final class ProcessLifecycle {

  private final String name;
  private final Duration stopTimeout;
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final AtomicBoolean begun = new AtomicBoolean();

  /**
   * @param name the process's name, for the hook thread ({@code quotaflow-NAME-shutdown})
   * @param stopTimeout how long a signal waits for the graceful stop before the JVM exits regardless
   */
  public ProcessLifecycle(String name, Duration stopTimeout) {
    if (stopTimeout.isNegative()) {
      throw new IllegalArgumentException("stop timeout must not be negative: " + stopTimeout);
    }
    this.name = name;
    this.stopTimeout = stopTimeout;
  }

  /**
   * Registers the shutdown hook. Call it before starting anything, so that a signal during start-up
   * also waits for the clean stop; close the result once everything is stopped. Once per lifecycle:
   * a stopped process is not started again.
   */
  public Running begin() {
    if (!begun.compareAndSet(false, true)) {
      throw new IllegalStateException("the " + name + " process was started before; a lifecycle runs once");
    }
    Thread hook = new Thread(this::stopOnSignal, "quotaflow-" + name + "-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    return new Running(hook);
  }

  /** Asks the main thread to stop, as a signal does; returns at once. */
  public void requestStop() {
    stopRequested.countDown();
  }

  public boolean isStopRequested() {
    return stopRequested.getCount() == 0;
  }

  /** Blocks the main thread until a stop is asked for. */
  public void awaitStopRequest() throws InterruptedException {
    stopRequested.await();
  }

  /** As {@link #awaitStopRequest()}, at most {@code timeout}; true when a stop was asked for. */
  public boolean awaitStopRequest(Duration timeout) throws InterruptedException {
    return stopRequested.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * What the shutdown hook does: asks for the stop, then waits for the main thread to finish it,
   * at most the stop timeout. Returns whether it finished in time.
   */
  boolean stopOnSignal() {
    requestStop();
    try {
      return stopped.await(stopTimeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** The registered hook; closing it says the graceful stop is done. */
  public final class Running implements AutoCloseable {
    private final Thread hook;

    private Running(Thread hook) {
      this.hook = hook;
    }

    /** The process has stopped: a waiting hook returns, and the hook is removed when the JVM is not exiting. */
    @Override
    public void close() {
      stopped.countDown();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the JVM is exiting: the hook is running and has just been released
      }
    }
  }
}
