package io.quotaflow.process.ops;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import java.util.List;

/**
 * The JVM and process meters under the names every JVM dashboard already knows
 * ({@code jvm_memory_used_bytes}, {@code jvm_gc_pause_seconds}, {@code process_cpu_usage},
 * {@code process_start_time_seconds}, ...), bound once per {@code /metrics} endpoint.
 * Closing it detaches the GC listener, which would otherwise outlive the endpoint.
 */
final class JvmProcessMeters implements AutoCloseable {

  private final List<MeterBinder> binders;

  private JvmProcessMeters(List<MeterBinder> binders) {
    this.binders = binders;
  }

  static JvmProcessMeters bindTo(MeterRegistry registry) {
    List<MeterBinder> binders = List.of(new JvmMemoryMetrics(), new JvmGcMetrics(), new JvmThreadMetrics(),
        new ClassLoaderMetrics(), new ProcessorMetrics(), new UptimeMetrics(), new FileDescriptorMetrics());
    binders.forEach(binder -> binder.bindTo(registry));
    return new JvmProcessMeters(binders);
  }

  @Override
  public void close() {
    for (MeterBinder binder : binders) {
      if (binder instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception e) {
          // Only listeners are detached here; one that fails to go leaves nothing to repair.
        }
      }
    }
  }
}
