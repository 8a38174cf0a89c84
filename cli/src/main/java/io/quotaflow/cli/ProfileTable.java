package io.quotaflow.cli;

import io.quotaflow.schemas.avro.internal.MemoryProfileRecord;
import java.io.PrintWriter;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Learned memory profiles as an aligned table: one row per operation, sizes readable and in bytes. */
final class ProfileTable {

  private static final List<String> HEADER = List.of("OPERATION", "NORMAL", "PEAK", "RUNS", "UPDATED (UTC)");

  private ProfileTable() {}

  static void print(Collection<MemoryProfileRecord> profiles, PrintWriter out) {
    List<List<String>> rows = new ArrayList<>();
    rows.add(HEADER);
    for (MemoryProfileRecord profile : profiles) {
      rows.add(List.of(profile.getOperation(), ByteSize.withBytes(profile.getNormalBytes()),
          ByteSize.withBytes(profile.getPeakBytes()), Long.toString(profile.getRuns()),
          Instant.ofEpochMilli(profile.getUpdatedTsMs()).truncatedTo(ChronoUnit.SECONDS).toString()));
    }
    int[] widths = new int[HEADER.size()];
    for (List<String> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        String cell = row.get(i);
        boolean last = i == row.size() - 1;
        line.append(last ? cell : String.format("%-" + widths[i] + "s  ", cell));
      }
      out.println(line);
    }
    out.flush();
  }
}
