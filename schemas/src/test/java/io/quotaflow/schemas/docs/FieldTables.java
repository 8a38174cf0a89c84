package io.quotaflow.schemas.docs;

import io.quotaflow.schemas.Topic;
import io.quotaflow.schemas.serde.AvroSerde;
import io.quotaflow.schemas.serde.SubjectNames;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import org.apache.avro.util.internal.JacksonUtils;

/**
 * Renders docs/data.md's field tables from the schemas: one Markdown table per topic whose values
 * are Avro, nested records flattened to dotted names, so the page data teams read cannot drift
 * from what the topics carry. Pure: schemas in, text out.
 */
public final class FieldTables {
  private FieldTables() {}

  /** The tables of every Avro-valued topic, in catalogue order, names shown without {@code prefix}. */
  public static String render(List<Topic<?, ?>> topics, String prefix) {
    StringBuilder out = new StringBuilder();
    for (Topic<?, ?> topic : topics) {
      if (topic.valueSerde() instanceof AvroSerde<?> avro) {
        out.append(table(topic.name().substring(prefix.length()), topic.name(), avro.schema()));
      }
    }
    return out.toString();
  }

  static String table(String shortName, String topicName, Schema value) {
    StringBuilder out = new StringBuilder();
    out.append("### `").append(shortName).append("`: `").append(value.getName()).append("`\n\n");
    out.append(cell(value.getDoc())).append(" Subject `").append(SubjectNames.topicNameStrategy(topicName, false))
        .append("`, full name `").append(value.getFullName()).append("`.\n\n");
    out.append("| field | Avro type | default | doc |\n|---|---|---|---|\n");
    rows(value, "", out);
    out.append('\n');
    return out.toString();
  }

  private static void rows(Schema record, String path, StringBuilder out) {
    for (Schema.Field field : record.getFields()) {
      String name = path + field.name();
      out.append("| `").append(name).append("` | ").append(type(field.schema())).append(" | ")
          .append(defaultOf(field)).append(" | ").append(cell(field.doc())).append(" |\n");
      if (field.schema().getType() == Schema.Type.RECORD) {
        rows(field.schema(), name + ".", out);
      }
    }
  }

  /** Avro's own spelling, shortened where the full JSON would not fit a cell. */
  static String type(Schema schema) {
    return switch (schema.getType()) {
      case UNION -> schema.getTypes().stream().map(FieldTables::type).collect(Collectors.joining(" or "));
      case ENUM -> "enum `" + schema.getName() + "` {" + String.join(", ", schema.getEnumSymbols()) + "}"
          + (schema.getEnumDefault() == null ? "" : ", unknown reads as `" + schema.getEnumDefault() + "`");
      case RECORD -> "record `" + schema.getName() + "` (fields below)";
      case ARRAY -> "array of " + type(schema.getElementType());
      case MAP -> "map of " + type(schema.getValueType());
      default -> "`" + schema.getType().getName() + "`";
    };
  }

  private static String defaultOf(Schema.Field field) {
    if (!field.hasDefaultValue()) {
      return "—";
    }
    Object value = field.defaultVal();
    if (value == JsonProperties.NULL_VALUE) {
      return "`null`";
    }
    if (field.schema().getType() == Schema.Type.RECORD) {
      // The nested rows give each default; the record's own JSON would only repeat them.
      return "per field, below";
    }
    return "`" + JacksonUtils.toJsonNode(value) + "`";
  }

  /** A table cell: one line, pipes escaped. */
  private static String cell(String text) {
    return text == null ? "" : text.replace("\n", " ").replace("|", "\\|").strip();
  }
}
