package io.quotaflow.streams.topology;

/**
 * The values last read or written under a bounded number of keys, in front of a store that only its owner
 * writes: a read it answers costs a hash and an {@code equals} or a few, where the store's costs a lookup among
 * the writes waiting for the commit ({@link WriteBackStore}) and, for a key not written since the last commit,
 * the key's serialization, RocksDB and a decode. Its owner puts every value it writes and removes every key it deletes, so a value it holds is
 * the store's; a key it does not hold is read from the store.
 *
 * <p>Bounded: {@code slots} (key, value) pairs in sets of {@link #WAYS}, each key in the set its hash picks,
 * newest first; a key written goes first in its set and the oldest of a full set goes. A key is so lost only
 * when four others land in its set before it comes back: where keys come back within fewer others than a quarter
 * of the slots (a partition's tasks in {@code bench cpu}, {@link TaskStores#TASK_MEMO_SLOTS}) nearly every read is
 * answered, and where they do not, a miss costs a few slot moves and no heap that grows. Single-threaded: one per
 * processor.
 */
final class KeyMemo<V> {

  /**
   * Ways per set. With two, three or more of a partition's ~420 task keys landed in the same set of a 2,048-slot
   * memo for ~4 % of the tasks, and those missed on every sample (their reads were 2.8 % of the stream threads'
   * CPU in {@code bench cpu}); with four, ~0.3 % of the tasks (counted on the bench's keys).
   */
  static final int WAYS = 4;

  /** Set s is at [s * WAYS, s * WAYS + WAYS), newest first. */
  private final String[] keys;
  private final Object[] values;
  /**
   * The keys' hashes, compared before the keys: a read that misses (most, where a partition's tasks outnumber the
   * slots) then touches one array line, not the four keys of its set; it was 4 % of the stream threads' CPU at
   * 100,000 tasks in {@code bench cpu}, the cache misses of those four strings.
   */
  private final int[] hashes;
  private final int setMask;

  /** {@code slots}: a power of two of at least {@link #WAYS}, the most values held. */
  KeyMemo(int slots) {
    if (slots < WAYS || Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("memo slots must be a power of two of at least " + WAYS + ", not " + slots);
    }
    keys = new String[slots];
    values = new Object[slots];
    hashes = new int[slots];
    setMask = slots / WAYS - 1;
  }

  /** The value held for {@code key}, or null when none is. */
  @SuppressWarnings("unchecked")
  V get(String key) {
    int hash = key.hashCode();
    int first = first(hash);
    for (int i = first; i < first + WAYS; i++) {
      if (hashes[i] == hash && key.equals(keys[i])) {
        return (V) values[i];
      }
    }
    return null;
  }

  /**
   * Holds {@code value} (not null) for {@code key}, first in its set, in place of what it held for it; a key new to
   * the set takes the place a removed one left, else the oldest's.
   */
  void put(String key, V value) {
    int hash = key.hashCode();
    int first = first(hash);
    int freed = place(key, hash, first);
    System.arraycopy(keys, first, keys, first + 1, freed - first);
    System.arraycopy(values, first, values, first + 1, freed - first);
    System.arraycopy(hashes, first, hashes, first + 1, freed - first);
    keys[first] = key;
    values[first] = value;
    hashes[first] = hash;
  }

  /** The way whose entry {@code put} replaces: the key's own, else an empty one, else the oldest. */
  private int place(String key, int hash, int first) {
    int empty = -1;
    for (int i = first; i < first + WAYS; i++) {
      if (hashes[i] == hash && key.equals(keys[i])) {
        return i;
      }
      if (empty < 0 && keys[i] == null) {
        empty = i;
      }
    }
    return empty >= 0 ? empty : first + WAYS - 1;
  }

  /** Holds nothing for {@code key} any more. */
  void remove(String key) {
    int hash = key.hashCode();
    int first = first(hash);
    for (int i = first; i < first + WAYS; i++) {
      if (hashes[i] == hash && key.equals(keys[i])) {
        keys[i] = null;
        values[i] = null;
      }
    }
  }

  private int first(int hash) {
    return ((hash ^ (hash >>> 16)) & setMask) * WAYS;
  }
}
