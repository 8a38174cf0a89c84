package io.quotaflow.collector;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.quotaflow.process.Durations;
import io.quotaflow.cgroups.Cgroups;
import io.quotaflow.process.ops.Health;
import io.quotaflow.process.ops.OpsServer;
import io.quotaflow.schemas.Topics;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.registry.RegistryUnavailableException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.errors.SerializationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node collector: samples the task groups under the parent every period and publishes
 * {@code CgroupSample}s, a GONE sample for each group that disappears, and {@code NodeStatus} at
 * start and every minute. Sampling runs on its own thread into a bounded drop-oldest buffer, and
 * a publishing thread drains the buffer into an idempotent producer, so a broker outage never
 * delays sampling and costs at most the oldest samples (the gap shows in {@code seq}).
 *
 * <p>{@link #start} checks everything an operator can get wrong first (cgroup root, broker,
 * registry, ops port) and fails with a one-line {@link CollectorException}.
 */
public final class Collector implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(Collector.class);
  /**
   * Records the producer may hold unacknowledged: a few rounds of a large node, a few hundred
   * KB. What it holds cannot be dropped, so it is kept small next to the buffer, and never larger
   * than the buffer: through an outage a collector holds at most twice {@code --buffer}.
   */
  static final int MAX_IN_FLIGHT = 2_000;
  private static final Duration DRAIN_ON_STOP = Duration.ofSeconds(5);
  private static final Duration MIN_STALL_LIMIT = Duration.ofSeconds(10);
  private static final Duration DROP_LOG_INTERVAL = Duration.ofMinutes(1);

  private final CollectorSettings settings;
  private final Cgroups cgroups;
  private final SampleBuilder builder;
  private final RecordEncoder encoder;
  private final DropOldestBuffer<Outgoing> buffer;
  private final PublishState publishing = new PublishState();
  private final CollectorMetrics metrics;
  private final Producer<String, byte[]> producer;
  private final Publisher publisher;
  private final Thread publisherThread;
  private final Sampler sampler;
  private final ScheduledThreadPoolExecutor scheduler;
  private final CollectorHealth health;
  private final OpsServer ops;
  private final AtomicBoolean closed = new AtomicBoolean();
  /** The current round's records, handed to the buffer together when the round ends. */
  private final List<Outgoing> round = new ArrayList<>();
  private volatile Metric connectionCount;
  private long lastDropLogNanos;
  private boolean reportedUnready;

  private Collector(CollectorSettings settings, Cgroups cgroups, RecordEncoder encoder,
      Producer<String, byte[]> producer, PrometheusMeterRegistry registry) {
    this.settings = settings;
    this.cgroups = cgroups;
    this.builder = new SampleBuilder(settings.node());
    this.encoder = encoder;
    this.producer = producer;
    this.buffer = new DropOldestBuffer<>(settings.bufferCapacity());
    this.metrics = new CollectorMetrics(registry);
    this.sampler = new Sampler(cgroups, settings.memoryStatRefresh(), builder, System::currentTimeMillis,
        this::encodeSample, metrics);
    this.publisher = new Publisher(producer, buffer, Math.min(MAX_IN_FLIGHT, settings.bufferCapacity()),
        metrics, publishing);
    // Short names: Linux keeps 15 characters of a thread's name, and per-thread CPU is read by them.
    this.publisherThread = new Thread(publisher, "qf-collector-publisher");
    this.publisherThread.setDaemon(true);
    this.scheduler = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "qf-collector-sampler");
      t.setDaemon(true);
      return t;
    });
    metrics.watch(buffer, publishing, sampler);
    Duration stallLimit = settings.period().multipliedBy(10).compareTo(MIN_STALL_LIMIT) > 0
        ? settings.period().multipliedBy(10) : MIN_STALL_LIMIT;
    this.health = new CollectorHealth(this::isLive, this::brokerConnections, publishing, buffer,
        System::currentTimeMillis, stallLimit);
    try {
      this.ops = OpsServer.start(settings.opsHost(), settings.opsPort(), registry, health);
    } catch (UncheckedIOException e) {
      throw new CollectorException(e.getMessage(), e);
    }
  }

  /**
   * Opens the cgroups, checks that its topics exist (the streams app creates them), registers the schemas, publishes the first
   * {@code NodeStatus} and starts sampling.
   *
   * @param clientProperties Kafka client properties: bootstrap servers, and SASL/TLS if any
   * @param topics the catalogue, with the registry client its serdes use
   * @throws CollectorException with a one-line message when any of these fails
   */
  public static Collector start(CollectorSettings settings, Map<String, Object> clientProperties, Topics topics) {
    Cgroups cgroups = StartupChecks.openCgroups(settings);
    NodeFacts facts = StartupChecks.readFacts();
    String bootstrap = String.valueOf(clientProperties.get(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG));
    // Not created here: the streams app creates every topic, so one place decides partition counts.
    StartupChecks.requireTopics(clientProperties, List.of(topics.samples().name(), topics.nodes().name()));
    RecordEncoder encoder = new RecordEncoder(topics);
    Outgoing status = StartupChecks.registerSchemas(encoder, new SampleBuilder(settings.node()), facts, cgroups);
    Producer<String, byte[]> producer = StartupChecks.newProducer(clientProperties, settings.node(), bootstrap);
    Collector collector = null;
    try {
      StartupChecks.publishNow(producer, status, bootstrap);
      collector = new Collector(settings, cgroups, encoder, producer,
          OpsServer.newRegistry("collector"));
      collector.metrics.statusesPublished.increment();
      collector.run();
      LOG.info("collector for node {} started: {}, every {}; /metrics and /health on port {}",
          settings.node(), cgroups.describe(), Durations.format(settings.period()), collector.opsPort());
      return collector;
    } catch (RuntimeException e) {
      if (collector != null) {
        collector.close();
      } else {
        producer.close(Duration.ZERO);
      }
      throw e;
    }
  }

  private void run() {
    publisherThread.start();
    long periodNanos = settings.period().toNanos();
    scheduler.scheduleAtFixedRate(this::sampleRound, 0, periodNanos, TimeUnit.NANOSECONDS);
    long statusNanos = settings.nodeStatusPeriod().toNanos();
    scheduler.scheduleAtFixedRate(this::queueNodeStatus, statusNanos, statusNanos, TimeUnit.NANOSECONDS);
    scheduler.scheduleAtFixedRate(this::logReadinessChange, 1, 1, TimeUnit.SECONDS);
  }

  /** One line when publishing stops and one when it resumes, instead of the client's line a second. */
  private void logReadinessChange() {
    try {
      Health now = health.check();
      if (!now.ready() && !reportedUnready) {
        reportedUnready = true;
        LOG.warn("not publishing: {}; sampling goes on into the buffer", now.detail());
      } else if (now.ready() && reportedUnready) {
        reportedUnready = false;
        LOG.info("publishing again: {}; {} samples dropped so far", now.detail(), metrics.samplesDropped());
      }
    } catch (RuntimeException e) {
      LOG.debug("health check failed: {}", e.toString());
    }
  }

  private void sampleRound() {
    long started = System.nanoTime();
    try {
      sampler.round();
      buffer.addAll(round, this::dropped);
    } catch (RuntimeException e) {
      // A scheduled task that throws is never run again: count, log, and sample next period.
      metrics.readErrors.increment();
      LOG.warn("sampling round failed: {}", e.toString());
    } finally {
      round.clear();
      metrics.sampleDuration.record(System.nanoTime() - started, TimeUnit.NANOSECONDS);
    }
  }

  private void encodeSample(String key, CgroupSample sample) {
    Outgoing record;
    try {
      record = encoder.sample(key, sample);
    } catch (SerializationException | RegistryUnavailableException e) {
      // Schemas are registered at start and their ids cached, so this is a bug, not an outage.
      metrics.publishErrors.increment();
      LOG.warn("cannot encode the sample of {}: {}", key, e.getMessage());
      return;
    }
    round.add(record);
  }

  private void queueNodeStatus() {
    try {
      enqueue(encoder.status(StartupChecks.readFacts().toStatus(settings.node(), System.currentTimeMillis(), cgroups.version())));
    } catch (RuntimeException e) {
      LOG.warn("cannot publish the node status: {}", e.getMessage());
    }
  }

  private void enqueue(Outgoing record) {
    Outgoing evicted = buffer.add(record);
    if (evicted != null) {
      dropped(evicted);
    }
  }

  private void dropped(Outgoing evicted) {
    metrics.dropped(evicted);
    long now = System.nanoTime();
    if (lastDropLogNanos == 0 || now - lastDropLogNanos > DROP_LOG_INTERVAL.toNanos()) {
      lastDropLogNanos = now;
      LOG.warn("buffer full ({} records, broker unreachable?): dropping the oldest samples; {} dropped so far",
          buffer.capacity(), metrics.samplesDropped());
    }
  }

  private boolean isLive() {
    return !closed.get() && !scheduler.isShutdown() && publisherThread.isAlive();
  }

  /** The producer's open broker connections; 0 while the broker is away. */
  private int brokerConnections() {
    Metric metric = connectionCount;
    if (metric == null) {
      metric = producer.metrics().entrySet().stream()
          .filter(e -> e.getKey().name().equals("connection-count") && e.getKey().group().equals("producer-metrics"))
          .map(Map.Entry::getValue).findFirst().orElse(null);
      connectionCount = metric;
    }
    return metric == null ? 0 : ((Number) metric.metricValue()).intValue();
  }

  public int opsPort() {
    return ops.port();
  }

  public CollectorMetrics metrics() {
    return metrics;
  }

  public Health health() {
    return health.check();
  }

  /** Records waiting in the buffer (not yet handed to the producer). */
  public int buffered() {
    return buffer.size();
  }

  /**
   * Stops sampling, hands on what is buffered for up to 5 s, lets the producer deliver what it
   * holds for up to 5 s more, and closes the readers and the ops endpoint. Whatever is still
   * unsent then is lost (and logged).
   */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    scheduler.shutdown();
    try {
      if (!scheduler.awaitTermination(settings.period().toMillis() + 10_000, TimeUnit.MILLISECONDS)) {
        LOG.warn("the sampling round did not finish within the stop timeout");
      }
      publisher.stop(DRAIN_ON_STOP);
      publisherThread.join(DRAIN_ON_STOP.plusSeconds(2).toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    int unsent = buffer.size() + publishing.inFlight();
    producer.close(DRAIN_ON_STOP);
    sampler.close();
    ops.close();
    LOG.info("collector stopped: {} samples published, {} dropped, {} not sent", metrics.samplesPublished(),
        metrics.samplesDropped(), unsent);
  }
}
