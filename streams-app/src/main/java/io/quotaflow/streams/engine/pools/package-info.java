/**
 * Integral pools: YTsaurus burst and relaxed CPU guarantees over flat pools (DESIGN §3).
 *
 * <p>Plain Java: nothing here imports Kafka, Avro or the topology, and nothing reads a clock. The
 * topology maps {@code PoolConfig}, {@code ClusterConfig} and the per-pool partial sums to a
 * {@link io.quotaflow.streams.engine.pools.PoolsPeriod}, calls
 * {@link io.quotaflow.streams.engine.pools.IntegralPools#update}, stores the returned
 * {@link io.quotaflow.streams.engine.pools.PoolVolumeState} per pool and publishes the returned
 * {@link io.quotaflow.streams.engine.pools.PoolAttributes} records. Shares inside the engine are
 * fractions of the cluster's CPU, as in YTsaurus; every {@code _cpu} value is in cores.
 */
package io.quotaflow.streams.engine.pools;
