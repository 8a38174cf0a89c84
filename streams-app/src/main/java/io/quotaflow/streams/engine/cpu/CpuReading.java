package io.quotaflow.streams.engine.cpu;

/**
 * The part of a cgroup sample the monitor reads. Both values come from a collector that reads
 * an epoch clock and a cumulative kernel counter, so neither is ever negative; rejecting negative
 * values here keeps every later subtraction free of overflow.
 *
 * @param tsMs         sample time, epoch ms (the sample's ts_ms)
 * @param cpuUsageUsec cumulative user+system CPU time of the cgroup, usec (cpu_usage_usec)
 */
public record CpuReading(long tsMs, long cpuUsageUsec) {

  public CpuReading {
    new Problems("sample.")
        .atLeast("ts_ms", tsMs, 0)
        .atLeast("cpu_usage_usec", cpuUsageUsec, 0)
        .throwIfAny();
  }
}
