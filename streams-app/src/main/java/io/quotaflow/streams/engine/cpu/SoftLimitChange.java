package io.quotaflow.streams.engine.cpu;

/**
 * A move of the soft limit: what the topology publishes as a decision.
 *
 * @param previousSoftLimitCpu the soft limit before the step, cores
 * @param softLimitCpu         the soft limit after the step, cores
 * @param reason               the last cause in the step (a vote decision wins over a clamp
 *                             that happened in the same step)
 * @param votesSum             for INCREASE/DECREASE the sum that fired (the window is cleared
 *                             afterwards); for CLAMPED the sum of the window as it stands
 */
public record SoftLimitChange(
    double previousSoftLimitCpu,
    double softLimitCpu,
    SoftLimitReason reason,
    int votesSum) {
}
