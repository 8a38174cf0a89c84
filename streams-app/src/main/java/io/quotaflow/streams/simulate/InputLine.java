package io.quotaflow.streams.simulate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.quotaflow.schemas.json.JsonRecords;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/**
 * One line of {@code simulate} input, checked: {@code {"type", "key", "value", "ts_ms"}} and nothing
 * else (docs/simulate.md). Every problem is an {@link IllegalArgumentException} whose message is one
 * sentence for the user, never the JSON parser's own text (source locations, feature names).
 *
 * @param value the record's value as given; null or a JSON null for a tombstone
 * @param tsMs the line's own record time, null when it gives none
 */
record InputLine(String type, String key, JsonNode value, Long tsMs) {

  static final List<String> TYPES = List.of("cluster", "pool", "task", "node", "sample", "result");
  private static final Set<String> KEYS = Set.of("type", "key", "value", "ts_ms");
  private static final String EXPECTED_TYPES = "expected cluster, pool, task, node, sample or result";

  /**
   * NaN and Infinity are read, so that the record check can name the field that holds one and refuse
   * it there; a key given twice is refused rather than silently the last one; text after the object
   * is refused rather than ignored.
   */
  private static final ObjectReader READER = JsonRecords.MAPPER.reader()
      .with(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .with(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  static InputLine parse(String text) {
    int replaced = text.indexOf('\uFFFD');
    if (replaced >= 0) {
      // The input is read with bytes that are not UTF-8 replaced by U+FFFD, so one bad line is refused, not the whole file.
      throw new IllegalArgumentException("not valid UTF-8 at column " + (replaced + 1)
          + " (bytes that decode to no character, or a U+FFFD replacement character)");
    }
    JsonNode line = json(text);
    if (line == null || !line.isObject()) {
      throw new IllegalArgumentException("expected a JSON object {\"type\", \"key\", \"value\"}, got "
          + (line == null ? "nothing" : line.getNodeType().name().toLowerCase(java.util.Locale.ROOT)));
    }
    for (Iterator<String> names = line.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!KEYS.contains(name)) {
        throw new IllegalArgumentException("unknown key \"" + name + "\": a line has \"type\", \"key\", \"value\" and optionally \"ts_ms\"");
      }
    }
    JsonNode type = line.get("type");
    if (type == null || type.isNull()) {
      throw new IllegalArgumentException("\"type\" is missing: " + EXPECTED_TYPES);
    }
    if (!type.isTextual() || !TYPES.contains(type.asText())) {
      throw new IllegalArgumentException("unknown type " + (type.isTextual() ? "'" + type.asText() + "'" : type.asText()) + ": " + EXPECTED_TYPES);
    }
    JsonNode key = line.get("key");
    if (key == null || key.isNull()) {
      throw new IllegalArgumentException("\"key\" is missing: the record key, node/task for tasks, samples and results");
    }
    if (!key.isTextual()) {
      throw new IllegalArgumentException("\"key\" must be a string");
    }
    JsonNode tsMs = line.get("ts_ms");
    if (tsMs != null && !tsMs.isNull() && !(tsMs.isIntegralNumber() && tsMs.canConvertToLong())) {
      throw new IllegalArgumentException("\"ts_ms\" must be an integer (epoch ms)");
    }
    return new InputLine(type.asText(), key.asText(), line.get("value"),
        tsMs == null || tsMs.isNull() ? null : tsMs.asLong());
  }

  /** The time this line says itself: its {@code ts_ms}, else a sample's, node's or result's own; null if it says none. */
  Long ownTimeMs() {
    if (tsMs != null) {
      return tsMs;
    }
    JsonNode valueTs = value == null ? null : value.get("ts_ms");
    boolean timed = type.equals("sample") || type.equals("node") || type.equals("result");
    return timed && valueTs != null && valueTs.isIntegralNumber() && valueTs.canConvertToLong() ? valueTs.asLong() : null;
  }

  private static JsonNode json(String text) {
    try {
      return READER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(syntaxProblem(e));
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("not valid JSON");
    }
  }

  /**
   * Jackson's complaint as a short sentence with the column. Its messages carry a source location
   * ("at [Source: …]"), hints naming its own feature switches and, with NaN allowed, a list of
   * tokens that advertises NaN; none of that helps someone fixing a line of a file.
   */
  static String syntaxProblem(JsonProcessingException e) {
    JsonLocation at = e.getLocation();
    String where = at == null || at.getColumnNr() < 1 ? "" : " at column " + at.getColumnNr();
    if (e instanceof JsonEOFException) {
      return "not valid JSON: the line ends inside an object, array or string";
    }
    if (e instanceof MismatchedInputException) {
      return "not valid JSON" + where + ": more follows the object";
    }
    String reason = String.valueOf(e.getOriginalMessage());
    for (String tail : List.of("\n", " (start marker at", ": enable `", " (bound as")) {
      int cut = reason.indexOf(tail);
      if (cut >= 0) {
        reason = reason.substring(0, cut);
      }
    }
    reason = reason.replace(" (or 'NaN'/'+INF'/'-INF')", "");
    if (reason.contains("`") || reason.contains("[Source")) {
      return "not valid JSON" + where;
    }
    return "not valid JSON" + where + ": " + reason;
  }
}
