package io.quotaflow.cli.demo;

import io.quotaflow.schemas.avro.GuaranteeType;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.PoolState;

/**
 * One line of the pools table: what the pool is configured to get, and its latest {@code pool-state}.
 * The state's fields are null until the pool processor has computed a period with the pool in it.
 *
 * @param guaranteeType BURST, RELAXED or NONE
 * @param flowCpu {@code resource_flow_cpu}: what refills the volume, cores
 * @param burstCpu {@code burst_guarantee_cpu} of a burst pool, cores; null for the others
 * @param demandCpu Σ the reported limits of the pool's live tasks, cores
 * @param fairShareCpu the pool's fair share: what its tasks' effective limits add up to under contention, cores
 * @param integralCpu the part of the fair share granted from the volume, cores
 * @param volumeCpuSeconds V, the accumulated volume, cpu·s
 * @param burstLeftSeconds how long the volume lasts at full burst; null when it does not apply
 */
public record PoolRow(String pool, String guaranteeType, double flowCpu, Double burstCpu, Double demandCpu,
    Double fairShareCpu, Double integralCpu, Double volumeCpuSeconds, Double burstLeftSeconds) {

  /** {@code state} null: no period computed for the pool yet. */
  public static PoolRow of(PoolConfig config, PoolState state) {
    Double burst = config.getGuaranteeType() == GuaranteeType.BURST ? config.getBurstGuaranteeCpu() : null;
    if (state == null) {
      return new PoolRow(config.getPool(), config.getGuaranteeType().name(), config.getResourceFlowCpu(), burst,
          null, null, null, null, null);
    }
    return new PoolRow(config.getPool(), config.getGuaranteeType().name(), config.getResourceFlowCpu(), burst,
        state.getDemandCpu(), state.getFairShareCpu(), state.getIntegralCpu(), state.getAccumulatedResourceVolumeCpu(),
        state.getEstimatedBurstUsageDurationSeconds());
  }
}
