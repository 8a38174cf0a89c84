package io.quotaflow.streams.engine.pools;

import java.util.Objects;

/**
 * One pool's configuration: a plain mirror of the Avro {@code PoolConfig} fields. Values are not
 * checked here, so that an invalid record can still be built and explained by
 * {@link PoolSpecValidation}.
 *
 * @param relaxedShareMultiplierLimit null takes the cluster's M
 * @param limitCpu null for no cap
 */
public record PoolSpec(
    String pool,
    String parent,
    double strongGuaranteeCpu,
    double weight,
    GuaranteeType guaranteeType,
    double resourceFlowCpu,
    double burstGuaranteeCpu,
    Double relaxedShareMultiplierLimit,
    Double limitCpu) {

  public PoolSpec {
    Objects.requireNonNull(pool, "pool");
    Objects.requireNonNull(guaranteeType, "guaranteeType");
  }

  /** A pool with the schema defaults: no guarantees, weight 1. */
  public static PoolSpec of(String pool) {
    return new PoolSpec(pool, null, 0.0, 1.0, GuaranteeType.NONE, 0.0, 0.0, null, null);
  }

  /** A burst pool: refills at {@code flowCpu}, may spend up to {@code burstCpu} at once. */
  public static PoolSpec burst(String pool, double flowCpu, double burstCpu) {
    return of(pool).withGuaranteeType(GuaranteeType.BURST).withResourceFlowCpu(flowCpu).withBurstGuaranteeCpu(burstCpu);
  }

  /** A relaxed pool: refills at {@code flowCpu}. */
  public static PoolSpec relaxed(String pool, double flowCpu) {
    return of(pool).withGuaranteeType(GuaranteeType.RELAXED).withResourceFlowCpu(flowCpu);
  }

  public PoolSpec withParent(String value) {
    return new PoolSpec(pool, value, strongGuaranteeCpu, weight, guaranteeType, resourceFlowCpu,
        burstGuaranteeCpu, relaxedShareMultiplierLimit, limitCpu);
  }

  public PoolSpec withStrongGuaranteeCpu(double value) {
    return new PoolSpec(pool, parent, value, weight, guaranteeType, resourceFlowCpu,
        burstGuaranteeCpu, relaxedShareMultiplierLimit, limitCpu);
  }

  public PoolSpec withWeight(double value) {
    return new PoolSpec(pool, parent, strongGuaranteeCpu, value, guaranteeType, resourceFlowCpu,
        burstGuaranteeCpu, relaxedShareMultiplierLimit, limitCpu);
  }

  public PoolSpec withGuaranteeType(GuaranteeType value) {
    return new PoolSpec(pool, parent, strongGuaranteeCpu, weight, value, resourceFlowCpu,
        burstGuaranteeCpu, relaxedShareMultiplierLimit, limitCpu);
  }

  public PoolSpec withResourceFlowCpu(double value) {
    return new PoolSpec(pool, parent, strongGuaranteeCpu, weight, guaranteeType, value,
        burstGuaranteeCpu, relaxedShareMultiplierLimit, limitCpu);
  }

  public PoolSpec withBurstGuaranteeCpu(double value) {
    return new PoolSpec(pool, parent, strongGuaranteeCpu, weight, guaranteeType, resourceFlowCpu,
        value, relaxedShareMultiplierLimit, limitCpu);
  }

  public PoolSpec withRelaxedShareMultiplierLimit(Double value) {
    return new PoolSpec(pool, parent, strongGuaranteeCpu, weight, guaranteeType, resourceFlowCpu,
        burstGuaranteeCpu, value, limitCpu);
  }

  public PoolSpec withLimitCpu(Double value) {
    return new PoolSpec(pool, parent, strongGuaranteeCpu, weight, guaranteeType, resourceFlowCpu,
        burstGuaranteeCpu, relaxedShareMultiplierLimit, value);
  }
}
