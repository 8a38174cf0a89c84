package io.quotaflow.enforcer;

import io.quotaflow.cgroups.TaskId;
import io.quotaflow.schemas.TaskKey;
import io.quotaflow.schemas.avro.EnforcementKind;
import java.time.Clock;

/**
 * How decisions get answered on {@code enforcement-results}: every outcome is published, except
 * that "the group does not exist" is said once per decision ({@link TaskBook#firstMissingReport}),
 * so re-evaluating a decision never repeats it and nothing retries on its own.
 */
final class Answers {

  private final String node;
  private final TaskBook book;
  private final ResultPublisher results;
  private final EnforcerMetrics metrics;
  private final Clock clock;

  Answers(String node, TaskBook book, ResultPublisher results, EnforcerMetrics metrics, Clock clock) {
    this.node = node;
    this.book = book;
    this.results = results;
    this.metrics = metrics;
    this.clock = clock;
  }

  /** The answer to a task's decision. */
  void answer(EnforcementKind kind, TaskId task, DecisionRef ref, Outcome outcome) {
    if (outcome.groupMissing()) {
      if (!book.firstMissingReport(kind, task, ref)) {
        metrics.skipped("missing_reported");
        return;
      }
    } else {
      book.groupFound(kind, task);
    }
    publish(kind, task, ref, outcome);
  }

  /** A result that answers no decision of the task itself (a restore, a lease expiry): always published. */
  void publish(EnforcementKind kind, TaskId task, DecisionRef ref, Outcome outcome) {
    results.publish(TaskKey.keyOf(node, task.value()), task.value(), kind, ref, outcome, clock.millis());
  }

  /** A refused decision whose key names no valid task: answered under the key as received. */
  void refuse(EnforcementKind kind, String key, String rawTask, DecisionRef ref, Outcome outcome) {
    results.publish(key, rawTask, kind, ref, outcome, clock.millis());
  }
}
