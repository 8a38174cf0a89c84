package io.quotaflow.benchmarks;

/**
 * What one run measured. Rates are per second of the measured window; {@code backlogAtEnd} is
 * samples sent but not yet committed by the app when the window closed; heap and state are per task.
 *
 * @param commitIntervalMs the app's commit interval in the run, after any {@code --streams-config}
 * @param producerLingerMs the app's producers' {@code linger.ms} in the run, after any {@code --streams-config}
 * @param appSamplesPerSecond samples the app committed (its consumer group's offsets on {@code samples})
 * @param decisionsPerSecond decisions a read_committed reader received
 * @param baselineSamplesPerSecond the same records through a plain producer → read_committed consumer
 * @param heapBytesPerTask heap used after GC with the app running, minus before it started, per task, read as the
 *     window closed: an upper bound, since it includes the app's record cache, client buffers and the writes
 *     waiting for the next commit (up to a commit interval of them: the figure varies with where the reading fell)
 * @param heapAtRestBytesPerTask the same, read once the app had committed every sample sent: what it keeps for
 *     its tasks with nothing in flight
 * @param stateBytesPerTask key and value bytes of a task's latest entries in the task-state (CPU state and gate
 *     record, one record since 2026-11-29) and task-spec changelogs
 * @param streamCpuMicrosPerSample CPU time of the app's stream threads in the window over the samples it took
 */
record CpuFigures(
    CpuRun run,
    long commitIntervalMs,
    long producerLingerMs,
    int tasks,
    String offered,
    double appSamplesPerSecond,
    double decisionsPerSecond,
    long backlogAtEnd,
    Latencies.Summary latency,
    double baselineSamplesPerSecond,
    Latencies.Summary baselineLatency,
    double heapBytesPerTask,
    double heapAtRestBytesPerTask,
    double stateBytesPerTask,
    long dlqRecords,
    long sendFailures,
    double streamCpuMicrosPerSample) {

  double heapMibTotal() {
    return heapBytesPerTask * tasks / (1 << 20);
  }

  double ratioToBaseline() {
    return baselineSamplesPerSecond > 0 ? appSamplesPerSecond / baselineSamplesPerSecond : Double.NaN;
  }
}
