package io.quotaflow.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.quotaflow.schemas.json.JsonRecords;
import java.util.List;
import org.apache.avro.specific.SpecificRecord;

/** Turning operator input into contract records, refusing it with every problem named before anything is written. */
final class Records {
  private Records() {}

  static <T extends SpecificRecord> T parse(JsonNode json, Class<T> type) {
    try {
      return JsonRecords.fromJson(json, type);
    } catch (IllegalArgumentException e) {
      throw new CliException("invalid " + type.getSimpleName() + ": " + e.getMessage() + " (nothing was written)");
    }
  }

  static void requireValid(String what, List<String> problems) {
    if (!problems.isEmpty()) {
      throw new CliException("invalid " + what + " (nothing was written):\n  - " + String.join("\n  - ", problems));
    }
  }
}
