package io.quotaflow.streams.topology;

/**
 * The values last read or written under a few thousand keys, in front of a store that only its owner
 * writes: a read it answers costs a hash and an {@code equals}, where the store's costs the key's
 * serialization, a search of the record cache's tree of byte keys and, on a miss there, RocksDB and a
 * decode. Its owner puts every value it writes and removes every key it deletes, so a value it holds is
 * the store's; a key it does not hold is read from the store.
 *
 * <p>Bounded: {@code slots} (key, value) pairs in sets of two, each key in the set its hash picks, a newer key
 * replacing the older of the two. A key is so lost only when two others land in its set before it comes back,
 * not one: where keys come back within a few hundred others, nearly every read is answered, and where they do
 * not, a miss costs a slot write and no heap that grows. Single-threaded: one per processor.
 */
final class KeyMemo<V> {

  /** Way 0 of set s at 2s (the newer), way 1 at 2s + 1. */
  private final String[] keys;
  private final Object[] values;
  private final int setMask;

  /** {@code slots}: a power of two of at least 2, the most values held. */
  KeyMemo(int slots) {
    if (slots < 2 || Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("memo slots must be a power of two of at least 2, not " + slots);
    }
    keys = new String[slots];
    values = new Object[slots];
    setMask = slots / 2 - 1;
  }

  /** The value held for {@code key}, or null when none is. */
  @SuppressWarnings("unchecked")
  V get(String key) {
    int i = set(key);
    if (key.equals(keys[i])) {
      return (V) values[i];
    }
    return key.equals(keys[i + 1]) ? (V) values[i + 1] : null;
  }

  /**
   * Holds {@code value} (not null) for {@code key}, in place of what it held for it, in the newer way of its set: the
   * key there moves to the older way, whose own goes (unless it was {@code key}).
   */
  void put(String key, V value) {
    int i = set(key);
    if (!key.equals(keys[i])) {
      keys[i + 1] = keys[i];
      values[i + 1] = values[i];
      keys[i] = key;
    }
    values[i] = value;
  }

  /** Holds nothing for {@code key} any more. */
  void remove(String key) {
    int i = set(key);
    for (int way = i; way <= i + 1; way++) {
      if (key.equals(keys[way])) {
        keys[way] = null;
        values[way] = null;
      }
    }
  }

  private int set(String key) {
    int h = key.hashCode();
    return ((h ^ (h >>> 16)) & setMask) << 1;
  }
}
