package io.quotaflow.enforcer;

import io.micrometer.core.instrument.MeterRegistry;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.process.KafkaRefusal;
import io.quotaflow.process.ops.Health;
import io.quotaflow.schemas.Ids;
import io.quotaflow.schemas.Topics;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.WakeupException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node enforcer (docs/enforcer.md): reads its node's decisions and the cluster config, writes
 * the node's cgroups and publishes what it did, on its own thread until {@link #close()}.
 * {@code main}s parse flags and call {@link #start}; tests do the same.
 */
public final class Enforcer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Enforcer.class);
  /** How long a poll waits for records; also how late a lease expiry can be noticed. */
  private static final Duration POLL = Duration.ofMillis(200);
  /** Pause before asking again for missing topics or after a registry outage. */
  private static final Duration BACKOFF = Duration.ofSeconds(1);

  /**
   * @param node this node's id; only its records are acted on
   * @param dryRun {@code --dry-run}: never write a cgroup value, whatever the cluster says
   * @param stateFile where originals and leases are kept across restarts
   * @param leaseThawInterval at most one lease-expiry thaw per this interval
   * @param freezeTimeout how long a freeze or thaw may take before it counts as failed
   * @param clientProperties Kafka client settings (bootstrap, SASL, TLS)
   * @param reflexHz readings per second of the memory reflex; 0: no reflex
   * @param reflexLease how long a reflex freeze holds unless the gate adopts or overrules it
   */
  public record Settings(String node, boolean dryRun, Path stateFile, Duration leaseThawInterval,
      Duration freezeTimeout, Map<String, Object> clientProperties, int reflexHz, Duration reflexLease) {

    public static final Duration DEFAULT_LEASE_THAW_INTERVAL = Duration.ofSeconds(5);
    public static final Duration DEFAULT_FREEZE_TIMEOUT = Duration.ofSeconds(10);
    public static final int DEFAULT_REFLEX_HZ = 10;
    public static final int MAX_REFLEX_HZ = 1000;
    public static final Duration DEFAULT_REFLEX_LEASE = Duration.ofSeconds(10);

    public Settings {
      Ids.requireValid("node", node);
      clientProperties = Map.copyOf(clientProperties);
      if (reflexHz < 0 || reflexHz > MAX_REFLEX_HZ) {
        throw new IllegalArgumentException("--reflex-hz must be 0 (off) to " + MAX_REFLEX_HZ + ", was " + reflexHz);
      }
      if (reflexLease.isNegative() || reflexLease.isZero()) {
        throw new IllegalArgumentException("--reflex-lease must be more than 0, was " + reflexLease);
      }
    }

    /** With the reflex's defaults: 10 readings a second, a 10 s reflex lease. */
    public Settings(String node, boolean dryRun, Path stateFile, Duration leaseThawInterval, Duration freezeTimeout,
        Map<String, Object> clientProperties) {
      this(node, dryRun, stateFile, leaseThawInterval, freezeTimeout, clientProperties, DEFAULT_REFLEX_HZ,
          DEFAULT_REFLEX_LEASE);
    }

    public Settings withReflex(int hz, Duration lease) {
      return new Settings(node, dryRun, stateFile, leaseThawInterval, freezeTimeout, clientProperties, hz, lease);
    }
  }

  /** Where the enforcer is in its life, for /health. */
  private enum Phase {
    WAITING_FOR_TOPICS,
    CATCHING_UP,
    RUNNING,
    STOPPED,
    FAILED
  }

  private final Settings settings;
  private final StateFile stateFile;
  private final DecisionFeed feed;
  private final ResultPublisher results;
  private final NodeEnforcement enforcement;
  private final EnforcerMetrics metrics;
  private final Thread thread;
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final CountDownLatch stopped = new CountDownLatch(1);
  private volatile Phase phase = Phase.WAITING_FOR_TOPICS;
  private volatile Throwable failure;

  private Enforcer(Settings settings, StateFile stateFile, DecisionFeed feed, ResultPublisher results,
      NodeEnforcement enforcement, EnforcerMetrics metrics) {
    this.settings = settings;
    this.metrics = metrics;
    this.stateFile = stateFile;
    this.feed = feed;
    this.results = results;
    this.enforcement = enforcement;
    this.thread = new Thread(this::run, "quotaflow-enforcer-" + settings.node());
  }

  /**
   * Opens the state file (refusing one that is corrupt, of another node, or locked by another
   * enforcer) and starts enforcing on a new thread.
   */
  public static Enforcer start(Settings settings, Cgroups cgroups, Topics topics, MeterRegistry meters)
      throws IOException {
    StateFile stateFile = StateFile.open(settings.stateFile());
    try {
      EnforcerMetrics metrics = new EnforcerMetrics(meters);
      metrics.reads(List.of(topics.cpuDecisions().name(), topics.freezeDecisions().name(), topics.gateTables().name(),
          topics.clusterConfig().name()));
      NodeLedger ledger = NodeLedger.load(stateFile, settings.node(), cgroups.describe(),
          new LeaseBook(settings.leaseThawInterval().toMillis()));
      CgroupActuator actuator = new CgroupActuator(cgroups, settings.freezeTimeout(), metrics);
      DecisionFeed feed = new DecisionFeed(settings.clientProperties(), topics, settings.node());
      ResultPublisher results;
      try {
        results = new ResultPublisher(settings.clientProperties(), topics.enforcementResults(), settings.node(), metrics);
      } catch (RuntimeException e) {
        feed.close();
        throw e;
      }
      NodeEnforcement enforcement = new NodeEnforcement(settings.node(), settings.dryRun(), actuator, ledger, results,
          metrics, Clock.systemUTC(), new ReflexWatcher(cgroups), settings.reflexLease().toMillis(),
          topics.gateTables().name());
      Enforcer enforcer = new Enforcer(settings, stateFile, feed, results, enforcement, metrics);
      LOG.info("Enforcer for node {} on {}; state file {}{}; {}", settings.node(), cgroups.describe(), stateFile.path(),
          settings.dryRun() ? "; --dry-run: no cgroup value is ever written" : "", settings.reflexHz() == 0
              ? "memory reflex off" : "memory reflex at " + settings.reflexHz() + " Hz, lease " + settings.reflexLease());
      enforcer.thread.start();
      return enforcer;
    } catch (IOException | RuntimeException e) {
      stateFile.close();
      throw e;
    }
  }

  private void run() {
    try {
      boolean told = false;
      while (!feed.assign()) {
        if (!told) {
          LOG.info("Waiting for the decision topics to exist (the streams app creates them)");
          told = true;
        }
        if (pause(BACKOFF)) {
          return;
        }
      }
      phase = Phase.CATCHING_UP;
      while (!feed.caughtUp()) {
        for (FeedRecord record : feed.poll(POLL)) {
          enforcement.absorb(record);
        }
        if (feed.retryRequested() && pause(BACKOFF)) {
          return;
        }
      }
      enforcement.startEnforcing();
      phase = Phase.RUNNING;
      ReflexClock reflex = new ReflexClock(settings.reflexHz(), System.nanoTime());
      while (stopRequested.getCount() > 0) {
        // The poll returns early with records, and in time for the reflex's next reading.
        for (FeedRecord record : feed.poll(reflex.waitBefore(POLL, System.nanoTime()))) {
          enforcement.handle(record);
        }
        if (reflex.due(System.nanoTime())) {
          enforcement.reflex();
        }
        enforcement.tick();
        if (feed.retryRequested() && pause(BACKOFF)) {
          return;
        }
      }
    } catch (WakeupException e) {
      // close() asked the consumer to return: a normal stop
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Throwable e) {
      failure = e;
      Optional<String> refusal = KafkaRefusal.describe(e, settings.clientProperties());
      if (refusal.isPresent()) {
        // The broker refused: no bug to trace, the operator's fix is an ACL or a password.
        LOG.error("Enforcer for node {} stopped: {}", settings.node(), refusal.get());
      } else {
        LOG.error("Enforcer for node {} stopped on an error", settings.node(), e);
      }
    } finally {
      phase = failure == null ? Phase.STOPPED : Phase.FAILED;
      closeQuietly(feed);
      closeQuietly(results);
      closeQuietly(stateFile);
      enforcement.closeReflex();
      metrics.close();
      stopped.countDown();
    }
  }

  /** Waits up to {@code duration}; true when a stop was requested meanwhile. */
  private boolean pause(Duration duration) throws InterruptedException {
    return stopRequested.await(duration.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Live until it stopped on an error; ready once it caught up and acts on new decisions. */
  public Health health() {
    long newest = enforcement.newestDecisionTsMs();
    long staleness = newest < 0 ? -1 : Math.max(0, System.currentTimeMillis() - newest);
    Phase now = phase;
    String detail = now + (now == Phase.RUNNING ? ", enforcement " + enforcement.mode()
        + (settings.dryRun() ? " (--dry-run)" : "") + ", " + enforcement.taskCount() + " tasks, "
        + enforcement.frozenCount() + " frozen by this enforcer, partitions " + feed.assigned() : "");
    return new Health(now != Phase.FAILED, now == Phase.RUNNING, staleness, detail);
  }

  /** The error the enforcer stopped on, if it did. */
  public Optional<Throwable> failure() {
    return Optional.ofNullable(failure);
  }

  /** Waits until the enforcing thread ended (after {@link #close()} or an error); false on timeout. */
  public boolean awaitStopped(Duration timeout) throws InterruptedException {
    return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Stops after the record in hand, flushes the results and releases the state file. */
  @Override
  public void close() {
    stopRequested.countDown();
    feed.wakeup();
    try {
      if (!stopped.await(30, TimeUnit.SECONDS)) {
        LOG.warn("Enforcer for node {} did not stop within 30 s", settings.node());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void closeQuietly(AutoCloseable closeable) {
    try {
      closeable.close();
    } catch (Exception e) {
      LOG.warn("Closing {} failed: {}", closeable.getClass().getSimpleName(), e.toString());
    }
  }
}
