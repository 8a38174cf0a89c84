package io.quotaflow.streams.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * Real RocksDB stores opened with {@link BoundedRocksDbConfig}, as Kafka Streams opens them (its 16 MiB
 * write buffer, then the setter; no write-ahead log): the stores written on every sample flush their
 * own memtables, and a store written now and then is not flushed for them.
 */
class BoundedRocksDbConfigTest {

  private static final int HOT_STORES = 4;
  private static final int VALUE_BYTES = 1024;

  static {
    RocksDB.loadLibrary();
  }

  @TempDir Path dir;

  private final List<AutoCloseable> open = new ArrayList<>();
  private final WriteOptions noWal = new WriteOptions().setDisableWAL(true);

  @AfterEach
  void close() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
    noWal.close();
  }

  private RocksDB store(String name) throws RocksDBException {
    Options options = new Options().setCreateIfMissing(true).setWriteBufferSize(16L << 20)
        .setTableFormatConfig(new BlockBasedTableConfig());
    open.add(options);
    new BoundedRocksDbConfig().setConfig(name, options, Map.of());
    RocksDB db = RocksDB.open(options, dir.resolve(name).toString());
    open.add(db);
    return db;
  }

  private static int files(RocksDB db) {
    return db.getLiveFilesMetaData().size();
  }

  /** Until no flush is pending or running in any of the stores, so a flush that was asked for has its file. */
  private static void awaitFlushes(List<RocksDB> stores) throws RocksDBException, InterruptedException {
    for (int waited = 0; waited < 600; waited++) {
      boolean idle = true;
      for (RocksDB db : stores) {
        idle &= db.getLongProperty("rocksdb.mem-table-flush-pending") == 0
            && db.getLongProperty("rocksdb.num-running-flushes") == 0;
      }
      if (idle) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("RocksDB flushes still running after 60 s");
  }

  @Test
  void storesWrittenOnEverySampleFlushTheirOwnMemtablesAndLeaveARarelyWrittenStoreAlone() throws Exception {
    RocksDB rare = store("rare");
    List<RocksDB> hot = new ArrayList<>();
    for (int i = 0; i < HOT_STORES; i++) {
      hot.add(store("hot-" + i));
    }
    byte[] value = new byte[VALUE_BYTES];
    Arrays.fill(value, (byte) 7);
    // Twice the default budget through the hot stores: with a flush limit on the shared memtables (a
    // quarter of the budget, before), it was passed again and again, and the rarely written store,
    // written between, had its one-record memtable flushed.
    long writes = 2 * BoundedRocksDbConfig.DEFAULT_TOTAL_BYTES / VALUE_BYTES;
    long rareWrites = 0;
    for (long n = 0; n < writes; n++) {
      hot.get((int) (n % HOT_STORES)).put(noWal, ("task-" + n).getBytes(), value);
      if (n % 256 == 0) {
        rare.put(noWal, ("node-" + (rareWrites++ % 4)).getBytes(), value);
      }
    }
    List<RocksDB> all = new ArrayList<>(hot);
    all.add(rare);
    awaitFlushes(all);

    assertThat(files(rare)).as("files of the rarely written store").isZero();
    assertThat(rare.getLongProperty("rocksdb.num-entries-active-mem-table")).isEqualTo(rareWrites);
    for (RocksDB db : hot) {
      assertThat(files(db)).as("files of a store written on every sample").isGreaterThan(0);
      assertThat(db.getLongProperty("rocksdb.cur-size-active-mem-table"))
          .isLessThanOrEqualTo(BoundedRocksDbConfig.memtableBytes(BoundedRocksDbConfig.DEFAULT_TOTAL_BYTES) + (128L << 10));
    }
  }

  @Test
  void aStoresMemtableIsASixtyFourthOfTheBudgetAndNeverUnderFourArenaBlocks() {
    assertThat(BoundedRocksDbConfig.memtableBytes(256L << 20)).isEqualTo(4L << 20);
    assertThat(BoundedRocksDbConfig.memtableBytes(1L << 20)).isEqualTo(4 * BoundedRocksDbConfig.ARENA_BLOCK_BYTES);
  }
}
