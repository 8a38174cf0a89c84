package io.quotaflow.streams.engine.memory;

/**
 * What a node's gate reports to metrics.
 *
 * @param headWaitMs how long the head of the wait queue has waited in stream time; 0 when nobody waits
 * @param waitAlert the head has waited longer than queue_wait_alert_ms
 */
public record GateStatus(int holders, int waiting, long headWaitMs, boolean waitAlert, long lateSamples) {}
