package io.quotaflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.quotaflow.process.UsageException;
import io.quotaflow.schemas.json.JsonRecords;
import java.util.List;
import java.util.function.Function;
import org.apache.avro.specific.SpecificRecord;

/**
 * Turning operator input into contract records, refusing it before anything is written: a usage
 * error (exit 2), one line naming the field and what it may be.
 */
public final class Records {
  private Records() {}

  public static <T extends SpecificRecord> T parse(JsonNode json, Class<T> type) {
    try {
      return JsonRecords.fromJson(json, type);
    } catch (IllegalArgumentException e) {
      throw new UsageException("invalid " + type.getSimpleName() + ": " + e.getMessage() + " (nothing was written)");
    }
  }

  public static void requireValid(String what, List<String> problems) {
    if (!problems.isEmpty()) {
      throw new UsageException("invalid " + what + ": " + String.join("; ", problems) + " (nothing was written)");
    }
  }

  /**
   * What a {@code set} can refuse before it connects: unknown fields and values of the wrong type
   * (against the schema), and values out of their field's range. The assignments are applied to
   * {@code fresh} (the key's fields over the schema's defaults), and only {@code fieldProblems} are
   * asked, never the rules between fields: those depend on the current record, which is not read yet.
   * Defaults pass every field check, so whatever is refused here is one of the assigned values.
   */
  public static <T extends SpecificRecord> void precheck(ObjectNode fresh, List<String> assignments, Class<T> type,
      String what, Function<T, List<String>> fieldProblems) {
    T probe = parse(FieldAssignments.apply(fresh, assignments), type);
    requireValid(what, fieldProblems.apply(probe));
  }
}
