package io.quotaflow.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

/** The soak's records, one row per interval, with its CSV and chart. */
final class SoakSeries {

  /** The recorded columns; {@code judged} ones get a flat / grows verdict. */
  enum Column {
    SENT("samples_per_s_sent", "samples/s sent", false),
    COMMITTED("samples_per_s_committed", "samples/s committed by the app", true),
    LAG("consumer_lag_records", "consumer lag (records)", true),
    ENFORCED("enforcer_results_per_s", "enforcer results/s (applied, unchanged)", false),
    HEAP_MIN_MIB("heap_used_min_mib", "heap used, min of interval (MiB)", true),
    BLOCK_CACHE_MIB("rocksdb_block_cache_mib", "RocksDB block cache incl. memtables charged (MiB)", true),
    MEMTABLES_MIB("rocksdb_memtables_mib", "RocksDB memtables (MiB)", true),
    TABLE_READERS_MIB("rocksdb_table_readers_mib", "RocksDB table readers (MiB)", true),
    OPEN_FILES("open_fds", "open file descriptors", true),
    STATE_DIR_MIB("state_dir_mib", "state dir on disk (MiB)", true),
    BROKER_LOG_OTHER_MIB("broker_log_without_samples_mib", "broker log without samples (MiB)", true),
    BROKER_LOG_MIB("broker_log_mib", "broker log, all topics (MiB)", true),
    LOAD_AVERAGE("load_average_1m", "machine load average, 1 min (other helpers' builds included)", false);

    final String csv;
    final String title;
    final boolean judged;

    Column(String csv, String title, boolean judged) {
      this.csv = csv;
      this.title = title;
      this.judged = judged;
    }
  }

  private final List<Double> hours = new ArrayList<>();
  private final List<double[]> rows = new ArrayList<>();

  void add(double hour, double[] row) {
    hours.add(hour);
    rows.add(row.clone());
  }

  int size() {
    return rows.size();
  }

  double[] hours() {
    return hours.stream().mapToDouble(Double::doubleValue).toArray();
  }

  double[] values(Column column) {
    return rows.stream().mapToDouble(row -> row[column.ordinal()]).toArray();
  }

  String describeLast() {
    double[] row = rows.get(rows.size() - 1);
    StringJoiner text = new StringJoiner(", ");
    for (Column column : Column.values()) {
      text.add(String.format(Locale.ROOT, "%s %,.1f", column.csv, row[column.ordinal()]));
    }
    return text.toString();
  }

  /** The series {@link #csv()} wrote, to chart it again. */
  static SoakSeries fromCsv(String csv) {
    SoakSeries series = new SoakSeries();
    List<String> lines = csv.lines().filter(l -> !l.isBlank()).toList();
    List<String> header = List.of(lines.get(0).split(","));
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",");
      double[] row = new double[Column.values().length];
      for (Column column : Column.values()) {
        int at = header.indexOf(column.csv);
        row[column.ordinal()] = at < 0 ? Double.NaN : Double.parseDouble(cells[at]);
      }
      series.add(Double.parseDouble(cells[0]) / 3600, row);
    }
    return series;
  }

  String csv() {
    StringBuilder csv = new StringBuilder("elapsed_s");
    for (Column column : Column.values()) {
      csv.append(',').append(column.csv);
    }
    csv.append('\n');
    for (int i = 0; i < rows.size(); i++) {
      csv.append(String.format(Locale.ROOT, "%.1f", hours.get(i) * 3600));
      for (double value : rows.get(i)) {
        csv.append(String.format(Locale.ROOT, ",%.3f", value));
      }
      csv.append('\n');
    }
    return csv.toString();
  }

  String chart(String title, String subtitle) {
    return SvgChart.render(title, subtitle, hours(), List.of(
        new SvgChart.Panel("Samples/s", "samples/s", List.of(
            line(Column.SENT, "sent", "#1f77b4", null), line(Column.COMMITTED, "committed by the app", "#d62728", "6,3"))),
        new SvgChart.Panel("Consumer lag of the app on samples", "records", List.of(
            line(Column.LAG, "lag", "#9467bd", null))),
        new SvgChart.Panel("Machine load average, 1 min (the soak's own load and anything else running)", "load", List.of(
            line(Column.LOAD_AVERAGE, "load average", "#7f7f7f", null))),
        new SvgChart.Panel("Heap used, lowest of each interval", "MiB", List.of(
            line(Column.HEAP_MIN_MIB, "heap min", "#2ca02c", null))),
        new SvgChart.Panel("RocksDB memory (all stores, one shared bounded cache)", "MiB", List.of(
            line(Column.BLOCK_CACHE_MIB, "block cache usage", "#ff7f0e", null),
            line(Column.MEMTABLES_MIB, "memtables", "#8c564b", "6,3"),
            line(Column.TABLE_READERS_MIB, "table readers", "#e377c2", "2,2"))),
        new SvgChart.Panel("Open file descriptors (the whole JVM)", "fds", List.of(
            line(Column.OPEN_FILES, "open fds", "#17becf", null))),
        new SvgChart.Panel("Streams state directory on disk", "MiB", List.of(
            line(Column.STATE_DIR_MIB, "state dir", "#1f77b4", null))),
        new SvgChart.Panel("Broker log on disk (1 GiB segments: the cleaner compacts only rolled ones)", "MiB", List.of(
            line(Column.BROKER_LOG_MIB, "all topics", "#bcbd22", null),
            line(Column.BROKER_LOG_OTHER_MIB, "all but samples (changelogs, decisions)", "#7f7f7f", "6,3")))));
  }

  private SvgChart.Series line(Column column, String label, String color, String dash) {
    return new SvgChart.Series(label, color, dash, values(column));
  }
}
