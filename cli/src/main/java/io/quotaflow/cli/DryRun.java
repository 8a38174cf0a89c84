package io.quotaflow.cli;

import io.quotaflow.schemas.json.JsonRecords;
import java.io.PrintWriter;
import org.apache.avro.generic.GenericRecord;

/**
 * What {@code set --dry-run} prints: the record that would be published, as {@code show} prints
 * records (KEY, then the value as JSON on one line), after a comment saying what it was built on.
 */
final class DryRun {
  private DryRun() {}

  static void print(PrintWriter out, String key, GenericRecord value) {
    // Nothing was read: a field not given shows the schema's default, not the current record's value.
    out.println("# --dry-run: nothing was sent; fields not given show the schema's defaults, not the current record's values");
    out.println(key + " " + JsonRecords.toJson(value));
    out.flush();
  }
}
