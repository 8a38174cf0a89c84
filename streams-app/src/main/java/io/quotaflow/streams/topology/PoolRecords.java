package io.quotaflow.streams.topology;

import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.internal.PartitionReports;
import io.quotaflow.schemas.avro.internal.PoolBarrierRecord;
import io.quotaflow.schemas.avro.internal.PoolPartialReport;
import io.quotaflow.schemas.avro.internal.PoolPartialSum;
import io.quotaflow.schemas.avro.internal.PoolVolumeRecord;
import io.quotaflow.streams.engine.pools.GuaranteeType;
import io.quotaflow.streams.engine.pools.PeriodBarrier;
import io.quotaflow.streams.engine.pools.PoolAttributes;
import io.quotaflow.streams.engine.pools.PoolClusterSettings;
import io.quotaflow.streams.engine.pools.PoolSpec;
import io.quotaflow.streams.engine.pools.PoolVolumeState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Maps the pool records of the topology onto the pools engine's values and back. */
public final class PoolRecords {

  private PoolRecords() {}

  public static PoolSpec spec(PoolConfig c) {
    return new PoolSpec(c.getPool(), c.getParent(), c.getStrongGuaranteeCpu(), c.getWeight(),
        GuaranteeType.valueOf(c.getGuaranteeType().name()), c.getResourceFlowCpu(), c.getBurstGuaranteeCpu(),
        c.getRelaxedShareMultiplierLimit(), c.getLimitCpu());
  }

  /** The cluster's pool settings, with T from the config or else the nodes' cpus. */
  public static PoolClusterSettings settings(ClusterConfig c, long nodeCpus) {
    double totalCpu = c.getTotalCpu() != null ? c.getTotalCpu() : nodeCpus;
    return new PoolClusterSettings(totalCpu, c.getPoolCapacitySaturationPeriodS(), c.getSmoothPeriodS(),
        c.getRelaxedShareMultiplierLimit());
  }

  static PeriodBarrier.Report report(PoolPartialReport r) {
    Map<String, PeriodBarrier.PoolSum> pools = new TreeMap<>();
    for (PoolPartialSum s : r.getPools()) {
      pools.put(s.getPool(), new PeriodBarrier.PoolSum(s.getReportedSumUcpu(), s.getTasks()));
    }
    return new PeriodBarrier.Report(r.getPartition(), r.getPeriod(), r.getNodeCpus(), pools);
  }

  static PoolPartialReport report(PeriodBarrier.Report r, long periodMs) {
    List<PoolPartialSum> sums = new ArrayList<>();
    r.pools().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> sums.add(PoolPartialSum.newBuilder()
        .setPool(e.getKey()).setReportedSumUcpu(e.getValue().reportedUcpu()).setTasks(e.getValue().tasks()).build()));
    return PoolPartialReport.newBuilder().setPartition(r.partition()).setPeriod(r.period()).setPeriodMs(periodMs)
        .setNodeCpus(r.nodeCpus()).setPools(sums).build();
  }

  static PeriodBarrier.State barrier(PoolBarrierRecord r) {
    Map<Integer, List<PeriodBarrier.Report>> reports = new TreeMap<>();
    for (PartitionReports p : r.getPartitions()) {
      reports.put(p.getPartition(), p.getReports().stream().map(PoolRecords::report).toList());
    }
    return new PeriodBarrier.State(reports, r.getFirstPeriod(), r.getLastComputed());
  }

  static PoolBarrierRecord barrier(PeriodBarrier.State s, long periodMs) {
    List<PartitionReports> partitions = new ArrayList<>();
    s.reports().forEach((p, list) -> partitions.add(PartitionReports.newBuilder().setPartition(p)
        .setReports(list.stream().map(r -> report(r, periodMs)).toList()).build()));
    return PoolBarrierRecord.newBuilder().setFirstPeriod(s.firstPeriod()).setLastComputed(s.lastComputed())
        .setPartitions(partitions).build();
  }

  static PoolVolumeState volume(PoolVolumeRecord r) {
    return new PoolVolumeState(r.getAccumulatedResourceVolumeCpu(), r.getLastIntegralShareRatio(), r.getLastUpdateMs());
  }

  static PoolVolumeRecord volume(String pool, PoolVolumeState v, double capRatio) {
    return PoolVolumeRecord.newBuilder().setPool(pool).setAccumulatedResourceVolumeCpu(v.accumulatedResourceVolumeCpu())
        .setLastIntegralShareRatio(v.lastIntegralShareRatio()).setLastUpdateMs(v.lastUpdateMs()).setCapRatio(capRatio)
        .build();
  }

  static PoolState state(PoolAttributes s) {
    return PoolState.newBuilder().setPool(s.pool()).setTsMs(s.tsMs())
        .setAccumulatedResourceRatioVolume(s.accumulatedResourceRatioVolume())
        .setAccumulatedResourceVolumeCpu(s.accumulatedResourceVolumeCpu())
        .setIntegralPoolCapacity(s.integralPoolCapacity()).setSpecifiedBurstRatio(s.specifiedBurstRatio())
        .setSpecifiedResourceFlowRatio(s.specifiedResourceFlowRatio()).setTotalBurstRatio(s.totalBurstRatio())
        .setTotalResourceFlowRatio(s.totalResourceFlowRatio())
        .setEstimatedBurstUsageDurationSeconds(s.estimatedBurstUsageDurationSeconds()).setDemandCpu(s.demandCpu())
        .setUsageCpu(s.usageCpu()).setStrongCpu(s.strongCpu()).setIntegralCpu(s.integralCpu())
        .setFairShareCpu(s.fairShareCpu()).build();
  }
}
