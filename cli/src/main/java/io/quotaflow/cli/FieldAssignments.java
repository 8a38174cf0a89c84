package io.quotaflow.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.quotaflow.process.UsageException;
import io.quotaflow.schemas.json.JsonRecords;
import java.util.List;

/**
 * {@code field=value} arguments applied to a record's JSON, so {@code quotaflow cluster set
 * enforcement=DRY_RUN} changes one field and keeps the rest. Values are JSON when they parse as
 * JSON ({@code 2}, {@code true}, {@code null}) and strings otherwise ({@code DRY_RUN}); dotted
 * names reach into nested records ({@code job_cpu_monitor.enable_cpu_reclaim=true}). A string that
 * reads as JSON is written quoted ({@code operation='"2024"'}).
 */
public final class FieldAssignments {
  private FieldAssignments() {}

  public static ObjectNode apply(ObjectNode base, List<String> assignments) {
    ObjectNode result = base.deepCopy();
    for (String assignment : assignments) {
      int eq = assignment.indexOf('=');
      if (eq <= 0) {
        throw new UsageException("'" + assignment + "' is not FIELD=VALUE");
      }
      String[] path = assignment.substring(0, eq).split("\\.");
      ObjectNode target = result;
      for (int i = 0; i < path.length - 1; i++) {
        JsonNode next = target.get(path[i]);
        if (next == null || !next.isObject()) {
          next = target.putObject(path[i]);
        }
        target = (ObjectNode) next;
      }
      target.set(path[path.length - 1], value(assignment.substring(eq + 1)));
    }
    return result;
  }

  private static JsonNode value(String text) {
    try {
      JsonNode parsed = JsonRecords.MAPPER.readTree(text);
      return parsed == null || parsed.isMissingNode() ? TextNode.valueOf(text) : parsed;
    } catch (JsonProcessingException e) {
      return TextNode.valueOf(text);
    }
  }
}
