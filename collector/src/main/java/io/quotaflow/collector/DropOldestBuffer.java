package io.quotaflow.collector;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * A bounded FIFO between the sampling thread and the publishing thread. When full, adding drops
 * the oldest element: during a long broker outage the newest samples are the ones worth keeping,
 * and the gap shows in {@code seq}. Thread-safe.
 */
final class DropOldestBuffer<T> {

  private final int capacity;
  private final ArrayDeque<T> items;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private long dropped;

  DropOldestBuffer(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("buffer capacity must be at least 1, was " + capacity);
    }
    this.capacity = capacity;
    // Grows on demand: most of the time the buffer holds one round at most.
    this.items = new ArrayDeque<>(Math.min(capacity, 1024));
  }

  /** Appends {@code item}; returns the element dropped to make room, or null. */
  T add(T item) {
    lock.lock();
    try {
      T evicted = null;
      if (items.size() == capacity) {
        evicted = items.pollFirst();
        dropped++;
      }
      items.addLast(item);
      notEmpty.signal();
      return evicted;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Appends {@code batch} in order under one lock and one wake-up of a waiting taker (a round's
   * samples arrive together); each element dropped to make room goes to {@code onDrop}.
   */
  void addAll(List<T> batch, Consumer<T> onDrop) {
    List<T> evicted = new ArrayList<>();
    lock.lock();
    try {
      for (T item : batch) {
        if (items.size() == capacity) {
          evicted.add(items.pollFirst());
          dropped++;
        }
        items.addLast(item);
      }
      if (!batch.isEmpty()) {
        notEmpty.signal();
      }
    } finally {
      lock.unlock();
    }
    evicted.forEach(onDrop);
  }

  /**
   * Returns an element taken but not handed on to the head, where it was. When the buffer filled
   * up meanwhile it is the oldest of all, so it is the one dropped: returns false then.
   */
  boolean putBack(T item) {
    lock.lock();
    try {
      if (items.size() == capacity) {
        dropped++;
        return false;
      }
      items.addFirst(item);
      notEmpty.signal();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /** The oldest element, waiting up to {@code maxWait} for one; null if none came. */
  T take(Duration maxWait) throws InterruptedException {
    long remaining = maxWait.toNanos();
    lock.lockInterruptibly();
    try {
      while (items.isEmpty()) {
        if (remaining <= 0) {
          return null;
        }
        remaining = notEmpty.awaitNanos(remaining);
      }
      return items.pollFirst();
    } finally {
      lock.unlock();
    }
  }

  /** The oldest element if there is one, without waiting. */
  T poll() {
    lock.lock();
    try {
      return items.pollFirst();
    } finally {
      lock.unlock();
    }
  }

  int size() {
    lock.lock();
    try {
      return items.size();
    } finally {
      lock.unlock();
    }
  }

  int capacity() {
    return capacity;
  }

  /** Elements dropped since creation, by {@link #add} or {@link #putBack}. */
  long dropped() {
    lock.lock();
    try {
      return dropped;
    } finally {
      lock.unlock();
    }
  }
}
