package io.quotaflow.streams.topology;

import java.util.Map;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.WriteBufferManager;

/**
 * Bounds the off-heap memory of every RocksDB store of the process: one shared block cache, with
 * memtables charged to it through a shared write buffer manager, and index and filter blocks inside
 * the cache (the Kafka Streams memory-management recipe). Without it each store allocates its own
 * cache and memtables, and memory grows with the number of partitions.
 *
 * <p>The write buffer manager only charges the memtables to the cache; it sets no flush limit. With
 * a limit, RocksDB flushes a memtable of whichever store writes while the limit is exceeded, the
 * oldest in that store rather than the largest (RocksDB issue 12157). At 100,000 tasks on 12
 * partitions the 16 MiB limit was exceeded all the time: every flush in RocksDB's logs was the write
 * buffer manager's, and the stores written now and then (a node's gate record) flushed one-record
 * memtables several times a second each, with their fsyncs and compactions, while the stores written
 * on every sample kept theirs ({@code quotaflow bench cpu --scale 100000}, docs/benchmarks.md).
 * Instead each store's memtable is capped at {@link #memtableBytes}, so a store fills and flushes its own.
 * The budget then holds while the memtables fit in it: two stores per partition are written on every
 * sample, ~2/64 of the budget per partition, so beyond ~30 partitions on one instance they can exceed it
 * (docs/operations.md).
 */
public final class BoundedRocksDbConfig implements RocksDBConfigSetter {

  /** Total off-heap bytes for all stores of the process (config {@value #TOTAL_BYTES_CONFIG}). */
  public static final String TOTAL_BYTES_CONFIG = "quotaflow.rocksdb.total.bytes";
  public static final long DEFAULT_TOTAL_BYTES = 64L << 20;
  /** Each store's memtable is the total over this: a store written on every sample flushes at that size. */
  private static final long MEMTABLE_FRACTION = 64;
  /**
   * RocksDB's default arena block is an eighth of the write buffer (2 MiB for Streams' 16 MiB), and a
   * memtable is charged a whole block as soon as it allocates one. With the 2 MiB default, four stores
   * per partition overran a 16 MiB memtable limit at a dozen partitions, and every write forced a
   * flush of a near-empty memtable (measured by {@code quotaflow bench cpu}: stream threads waiting in
   * {@code RocksDB.put}, a few thousand samples/s).
   */
  static final long ARENA_BLOCK_BYTES = 64L << 10;

  private static Cache cache;
  private static WriteBufferManager writeBufferManager;

  private static long sharedTotalBytes;

  /** The budget of the shared cache: the first store opened in the process sets it. */
  private static synchronized long ensureShared(long totalBytes) {
    if (cache == null) {
      sharedTotalBytes = totalBytes;
      cache = new LRUCache(totalBytes, -1, false, 0.1);
      writeBufferManager = new WriteBufferManager(0, cache);
    }
    return sharedTotalBytes;
  }

  /** One store's memtable for a total budget: 1 MiB of the default 64 MiB, and never under four arena blocks. */
  static long memtableBytes(long totalBytes) {
    return Math.max(4 * ARENA_BLOCK_BYTES, totalBytes / MEMTABLE_FRACTION);
  }

  @Override
  public void setConfig(String storeName, Options options, Map<String, Object> configs) {
    Object configured = configs.get(TOTAL_BYTES_CONFIG);
    long totalBytes = ensureShared(configured == null ? DEFAULT_TOTAL_BYTES : Long.parseLong(configured.toString()));
    BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
    table.setBlockCache(cache);
    table.setCacheIndexAndFilterBlocks(true);
    table.setCacheIndexAndFilterBlocksWithHighPriority(true);
    table.setPinTopLevelIndexAndFilter(true);
    options.setWriteBufferManager(writeBufferManager);
    options.setArenaBlockSize(ARENA_BLOCK_BYTES);
    options.setWriteBufferSize(memtableBytes(totalBytes));
    options.setTableFormatConfig(table);
  }

  @Override
  public void close(String storeName, Options options) {
    // The cache and write buffer manager are shared by every store: they live as long as the process.
  }
}
