package io.quotaflow.testharness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric tables of docs/operations.md ("## Metrics", one "### `process`" table each), read the
 * way an operator reads them, so a test can hold them against what {@code /metrics} really serves.
 * The docs are found at {@code ../docs} from a module (surefire's working directory), or at the
 * system property {@code quotaflow.docs.dir}.
 */
public final class MetricsTable {

  /** A row: the name in backticks, then the type. */
  private static final Pattern ROW = Pattern.compile("^\\|\\s*`([a-z_:][a-z0-9_:]*)`\\s*\\|\\s*([a-z]+)\\s*\\|");

  private MetricsTable() {}

  public static Path operationsDoc() {
    return Path.of(System.getProperty("quotaflow.docs.dir", "../docs")).resolve("operations.md");
  }

  /**
   * Name to type ({@code counter}, {@code gauge}, {@code histogram}, {@code summary}) of every row of
   * the table under {@code ### `process`} in the "Metrics" section, as a scrape's {@code # TYPE} lines say them.
   */
  public static Map<String, String> types(String process) {
    List<String> section = section(read(operationsDoc()), "## Metrics", "## ");
    List<String> table = section(section, "### `" + process + "`", "### ");
    Map<String, String> types = new LinkedHashMap<>();
    for (String line : table) {
      Matcher row = ROW.matcher(line);
      if (row.find()) {
        types.put(row.group(1), row.group(2));
      }
    }
    if (types.isEmpty()) {
      throw new AssertionError("no metric table for `" + process + "` under \"## Metrics\" in " + operationsDoc());
    }
    return types;
  }

  /** The lines after the heading {@code title} up to the next heading that starts with {@code next}. */
  private static List<String> section(List<String> lines, String title, String next) {
    List<String> out = new ArrayList<>();
    boolean in = false;
    for (String line : lines) {
      if (line.equals(title)) {
        in = true;
      } else if (in && line.startsWith(next)) {
        break;
      } else if (in) {
        out.add(line);
      }
    }
    return out;
  }

  private static List<String> read(Path doc) {
    try {
      return Files.readAllLines(doc);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + doc.toAbsolutePath(), e);
    }
  }
}
