package io.quotaflow.enforcer;

import io.quotaflow.cgroups.TaskId;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The groups this enforcer froze and until when each freeze holds (DESIGN §4). It is the only
 * licence to thaw: a group not in the book was frozen by someone else and is never thawed. Expired
 * leases are handed out one at a time, at most one per {@code minThawIntervalMs}, so that a streams
 * app outage does not release every waiting peak at once. Pure: time is an argument.
 */
public final class LeaseBook {

  /** @param ref the decision that froze the group or last renewed the freeze */
  public record Lease(TaskId task, long expiresAtMs, DecisionRef ref) {}

  private final long minThawIntervalMs;
  private final Map<TaskId, Lease> leases = new TreeMap<>();
  private long lastExpiryThawAtMs;
  private boolean thawedOnExpiry;

  public LeaseBook(long minThawIntervalMs) {
    if (minThawIntervalMs < 0) {
      throw new IllegalArgumentException("the interval between lease-expiry thaws must be >= 0 ms, was " + minThawIntervalMs);
    }
    this.minThawIntervalMs = minThawIntervalMs;
  }

  /** This enforcer froze {@code task}, or renewed its freeze, until {@code expiresAtMs}. */
  public void hold(TaskId task, long expiresAtMs, DecisionRef ref) {
    leases.put(task, new Lease(task, expiresAtMs, ref));
  }

  public boolean holds(TaskId task) {
    return leases.containsKey(task);
  }

  public Optional<Lease> lease(TaskId task) {
    return Optional.ofNullable(leases.get(task));
  }

  /** The group is thawed (or gone): no licence to touch it any more. */
  public void release(TaskId task) {
    leases.remove(task);
  }

  /** The freeze was withdrawn (a tombstone): the lease ends now and the group joins the expiry queue. */
  public void endNow(TaskId task, long nowMs) {
    Lease lease = leases.get(task);
    if (lease != null && lease.expiresAtMs() > nowMs) {
      leases.put(task, new Lease(task, nowMs, lease.ref()));
    }
  }

  /**
   * The lease to end now by thawing, if one ran out and the last expiry thaw is at least the
   * interval ago: the earliest expiry first (ties by task id).
   */
  public Optional<Lease> due(long nowMs) {
    if (thawedOnExpiry && nowMs - lastExpiryThawAtMs < minThawIntervalMs) {
      return Optional.empty();
    }
    return leases.values().stream()
        .filter(lease -> lease.expiresAtMs() <= nowMs)
        .min(Comparator.comparingLong(Lease::expiresAtMs).thenComparing(Lease::task));
  }

  /** An expiry thaw was attempted at {@code nowMs} (successful or not): the next waits the interval. */
  public void expiryThawAttempted(long nowMs) {
    thawedOnExpiry = true;
    lastExpiryThawAtMs = nowMs;
  }

  /** Every lease, by task id. */
  public List<Lease> all() {
    return List.copyOf(leases.values());
  }
}
