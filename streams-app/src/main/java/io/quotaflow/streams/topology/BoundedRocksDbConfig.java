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
 * memtables counted against it through a shared write buffer manager, and index and filter blocks
 * inside the cache (the Kafka Streams memory-management recipe). Without it each store allocates its
 * own cache and memtables, and memory grows with the number of partitions.
 */
public final class BoundedRocksDbConfig implements RocksDBConfigSetter {

  /** Total off-heap bytes for all stores of the process (config {@value #TOTAL_BYTES_CONFIG}). */
  public static final String TOTAL_BYTES_CONFIG = "quotaflow.rocksdb.total.bytes";
  public static final long DEFAULT_TOTAL_BYTES = 64L << 20;
  private static final double MEMTABLE_SHARE = 0.25;
  /**
   * RocksDB's default arena block is an eighth of the write buffer (2 MiB for Streams' 16 MiB), and
   * the write buffer manager charges a memtable a whole block as soon as it allocates one. Four
   * stores per partition, each charged 2 MiB, overrun a 16 MiB memtable budget at a dozen
   * partitions: every write then forces a flush of a near-empty memtable (measured by
   * {@code quotaflow bench cpu}: stream threads waiting in {@code RocksDB.put}, a few thousand samples/s).
   */
  static final long ARENA_BLOCK_BYTES = 64L << 10;

  private static Cache cache;
  private static WriteBufferManager writeBufferManager;

  private static synchronized void ensureShared(long totalBytes) {
    if (cache == null) {
      cache = new LRUCache(totalBytes, -1, false, 0.1);
      writeBufferManager = new WriteBufferManager((long) (totalBytes * MEMTABLE_SHARE), cache);
    }
  }

  @Override
  public void setConfig(String storeName, Options options, Map<String, Object> configs) {
    Object configured = configs.get(TOTAL_BYTES_CONFIG);
    ensureShared(configured == null ? DEFAULT_TOTAL_BYTES : Long.parseLong(configured.toString()));
    BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
    table.setBlockCache(cache);
    table.setCacheIndexAndFilterBlocks(true);
    table.setCacheIndexAndFilterBlocksWithHighPriority(true);
    table.setPinTopLevelIndexAndFilter(true);
    options.setWriteBufferManager(writeBufferManager);
    options.setArenaBlockSize(ARENA_BLOCK_BYTES);
    options.setTableFormatConfig(table);
  }

  @Override
  public void close(String storeName, Options options) {
    // The cache and write buffer manager are shared by every store: they live as long as the process.
  }
}
