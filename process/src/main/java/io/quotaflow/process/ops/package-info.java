/**
 * The operations HTTP endpoint every process serves ({@code /metrics}, {@code /health}) and that
 * the streams app's live state and the demo's status page are added to.
 */
package io.quotaflow.process.ops;
