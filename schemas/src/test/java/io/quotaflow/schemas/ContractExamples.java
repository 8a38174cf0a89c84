package io.quotaflow.schemas;

import io.quotaflow.schemas.avro.CgroupCpuSettings;
import io.quotaflow.schemas.avro.CgroupSample;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.CpuDecision;
import io.quotaflow.schemas.avro.Enforcement;
import io.quotaflow.schemas.avro.EnforcementKind;
import io.quotaflow.schemas.avro.EnforcementResult;
import io.quotaflow.schemas.avro.EnforcementStatus;
import io.quotaflow.schemas.avro.FreezeAction;
import io.quotaflow.schemas.avro.FreezeDecision;
import io.quotaflow.schemas.avro.GateMode;
import io.quotaflow.schemas.avro.GateTable;
import io.quotaflow.schemas.avro.GateTableTask;
import io.quotaflow.schemas.avro.GateTaskRole;
import io.quotaflow.schemas.avro.GuaranteeType;
import io.quotaflow.schemas.avro.JobCpuMonitorConfig;
import io.quotaflow.schemas.avro.NodeStatus;
import io.quotaflow.schemas.avro.PeakGatingMode;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.PoolState;
import io.quotaflow.schemas.avro.SampleState;
import io.quotaflow.schemas.avro.TaskSpec;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** One value of every contract record, with every nullable field set, so round trips cover every field. */
public final class ContractExamples {
  private ContractExamples() {}

  public static CgroupSample sample() {
    return CgroupSample.newBuilder().setNode("node-1").setTask("task-7").setTsMs(1_700_000_000_123L)
        .setCpuUsageUsec(123_456_789L).setMemoryBytes(512L << 20).setMemoryAnonBytes(400L << 20)
        .setMemoryPeakBytes(600L << 20).setNrThrottled(3).setThrottledUsec(4500L).setCpuQuotaCores(1.5)
        .setState(SampleState.FROZEN).setSeq(42).build();
  }

  public static TaskSpec taskSpec() {
    return TaskSpec.newBuilder().setNode("node-1").setTask("task-7").setOperation("sort").setPool("research")
        .setNcpus(2.0).setCpuLimit(3.0)
        .setJobCpuMonitor(JobCpuMonitorConfig.newBuilder().setEnableCpuReclaim(true).setCheckPeriodMs(500).build())
        .setMemoryNormalBytes(1L << 30).setMemoryPeakBytes(3L << 30).setInteractive(true).setSubmittedMs(1_699_999_000_000L)
        .build();
  }

  public static List<SpecificRecord> all() {
    return List.of(
        sample(),
        NodeStatus.newBuilder().setNode("node-1").setTsMs(1L).setMemoryTotalBytes(24L << 30).setCpus(2)
            .setThreadsPerCore(2).setCgroupVersion(1).build(),
        taskSpec(),
        PoolConfig.newBuilder().setPool("prod").setParent(null).setStrongGuaranteeCpu(100).setWeight(2)
            .setGuaranteeType(GuaranteeType.BURST).setResourceFlowCpu(1000).setBurstGuaranteeCpu(2000)
            .setRelaxedShareMultiplierLimit(2.5).setLimitCpu(3000.0).build(),
        ClusterConfig.newBuilder().setCluster("main").setEnforcement(Enforcement.DRY_RUN).setTotalCpu(2000.0)
            .setPeakGatingMode(PeakGatingMode.BUDGET).setMemoryHeadroomBytes(1L << 30).build(),
        CpuDecision.newBuilder().setNode("node-1").setTask("task-7").setTsMs(5L).setHardLimitCpu(2).setSoftLimitCpu(1.5)
            .setEffectiveLimitCpu(1.2).setSmoothedUsageCpu(0.8).setVotesSum(-4).setReason("DECREASE").setApply(true)
            .setCgroup(CgroupCpuSettings.newBuilder().setShares(1200).setWeight(117).setQuotaUs(-1).setPeriodUs(100_000).build())
            .build(),
        FreezeDecision.newBuilder().setNode("node-1").setTask("task-7").setTsMs(6L).setAction(FreezeAction.FREEZE)
            .setReason("PEAK_SLOT_BUSY").setQueuePosition(0).setLeaseMs(180_000L).build(),
        GateTable.newBuilder().setNode("node-1").setTsMs(6L).setMode(GateMode.COUNT).setHolders(List.of("task-3"))
            .setQueue(List.of("task-7")).setAdmitsNewPeak(false).setFreeSlots(0)
            .setTasks(List.of(GateTableTask.newBuilder().setTask("task-9").setRole(GateTaskRole.RUNNING)
                .setInteractive(false).setThresholdBytes(590_558_003L).setPeakBytes(1_258_291_200L).setAdmitted(false)
                .build()))
            .build(),
        PoolState.newBuilder().setPool("prod").setTsMs(7L).setAccumulatedResourceRatioVolume(0.5)
            .setAccumulatedResourceVolumeCpu(1000).setIntegralPoolCapacity(43200).setSpecifiedBurstRatio(1)
            .setSpecifiedResourceFlowRatio(0.5).setTotalBurstRatio(1).setTotalResourceFlowRatio(0.5)
            .setEstimatedBurstUsageDurationSeconds(1.0).setDemandCpu(2000).setUsageCpu(1800).setStrongCpu(0)
            .setIntegralCpu(1800).setFairShareCpu(1800).build(),
        EnforcementResult.newBuilder().setNode("node-1").setTask("task-7").setTsMs(8L).setKind(EnforcementKind.CPU)
            .setStatus(EnforcementStatus.APPLIED).setDetail("ok").setReadShares(1200L).setReadWeight(117L)
            .setReadQuotaUs(-1L).setReadPeriodUs(100_000L).setReadFrozen(false).setDecisionTopic("quotaflow.cpu-decisions")
            .setDecisionPartition(3).setDecisionOffset(99L).build());
  }
}
