package io.quotaflow.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.avro.JsonProperties;
import org.apache.avro.Schema;
import picocli.CommandLine;

/**
 * The fields a {@code set} command accepts, read from the record's Avro schema at run time and
 * listed in its {@code --help}: the help cannot drift from the contract when a field is added.
 * Nested records are listed by their dotted names ({@code job_cpu_monitor.min_cpu_limit}), as
 * {@link FieldAssignments} takes them.
 */
final class SchemaFields {

  /** One assignable field: its dotted name, the values it takes, and what it is when not given. */
  record Field(String name, String type, String whenAbsent) {}

  private static final String SECTION = "schemaFields";

  private SchemaFields() {}

  /**
   * Every field of {@code schema}, nested ones flattened; {@code givenElsewhere} says where the
   * fields the command takes from its key come from instead of a default.
   */
  static List<Field> of(Schema schema, Map<String, String> givenElsewhere) {
    List<Field> fields = new ArrayList<>();
    collect(schema, "", givenElsewhere, fields);
    return fields;
  }

  private static void collect(Schema record, String prefix, Map<String, String> givenElsewhere, List<Field> into) {
    for (Schema.Field field : record.getFields()) {
      String name = prefix + field.name();
      if (field.schema().getType() == Schema.Type.RECORD) {
        collect(field.schema(), name + ".", Map.of(), into);
      } else {
        String absent = givenElsewhere.containsKey(name) ? givenElsewhere.get(name) : field.hasDefaultValue() ? "default " + text(field.defaultVal()) : "required";
        into.add(new Field(name, type(field.schema()), absent));
      }
    }
  }

  /** The values a field takes, in the words of the typing rules (docs/operations.md "Operator tools"). */
  static String type(Schema schema) {
    return switch (schema.getType()) {
      case STRING -> "string";
      case BOOLEAN -> "boolean";
      case INT, LONG -> "integer";
      case FLOAT, DOUBLE -> "number";
      case ENUM -> String.join("|", schema.getEnumSymbols());
      case UNION -> schema.getTypes().stream()
          .filter(branch -> branch.getType() != Schema.Type.NULL)
          .map(SchemaFields::type)
          .collect(Collectors.joining(" or ")) + (schema.isNullable() ? " or null" : "");
      default -> schema.getType().getName();
    };
  }

  private static String text(Object defaultValue) {
    if (defaultValue == JsonProperties.NULL_VALUE) {
      return "null";
    }
    if (defaultValue instanceof CharSequence text && text.isEmpty()) {
      return "\"\"";
    }
    return String.valueOf(defaultValue);
  }

  /** Adds the field list to {@code set}'s help, just before the exit codes. */
  static void addToHelp(CommandLine set, Schema schema, Map<String, String> givenElsewhere) {
    List<Field> fields = of(schema, givenElsewhere);
    int width = fields.stream().mapToInt(field -> field.name().length()).max().orElse(0);
    StringBuilder text = new StringBuilder(String.format("%nFields of %s (FIELD=VALUE; from the schema):%n", schema.getName()));
    for (Field field : fields) {
      text.append(String.format("  %-" + width + "s  %s, %s%n", field.name(), field.type(), field.whenAbsent()));
    }
    set.getHelpSectionMap().put(SECTION, help -> text.toString());
    List<String> keys = new ArrayList<>(set.getHelpSectionKeys());
    int exitCodes = keys.indexOf(CommandLine.Model.UsageMessageSpec.SECTION_KEY_EXIT_CODE_LIST_HEADING);
    keys.add(exitCodes < 0 ? keys.size() : exitCodes, SECTION);
    set.setHelpSectionKeys(keys);
  }
}
