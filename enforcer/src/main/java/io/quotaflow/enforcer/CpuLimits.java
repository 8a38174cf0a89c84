package io.quotaflow.enforcer;

/**
 * A task's CPU limits as its latest decision states them, cores: shown on {@code /metrics}, never
 * acted on (the enforcer writes {@link CpuIntent#settings()}).
 *
 * @param soft the job CPU monitor's limit ({@code soft_limit_cpu})
 * @param effective the soft limit after the pool cap ({@code effective_limit_cpu})
 */
public record CpuLimits(double soft, double effective) {}
