package io.quotaflow.schemas.registry;

import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.SchemaCompatibilityType;

/**
 * Confluent's compatibility levels, checked with Avro's own {@link SchemaCompatibility}.
 * BACKWARD: the new schema reads data written with the old ones; FORWARD: the old schemas read data
 * written with the new one; FULL: both. The transitive levels check every earlier version, the others
 * only the latest.
 */
public enum CompatibilityLevel {
  NONE(false, false, false),
  BACKWARD(true, false, false),
  BACKWARD_TRANSITIVE(true, false, true),
  FORWARD(false, true, false),
  FORWARD_TRANSITIVE(false, true, true),
  FULL(true, true, false),
  FULL_TRANSITIVE(true, true, true);

  private final boolean backward;
  private final boolean forward;
  private final boolean transitive;

  CompatibilityLevel(boolean backward, boolean forward, boolean transitive) {
    this.backward = backward;
    this.forward = forward;
    this.transitive = transitive;
  }

  /**
   * Problems found checking {@code candidate} against {@code existing} (oldest first); empty when
   * compatible.
   */
  public List<String> problems(Schema candidate, List<Schema> existing) {
    if (existing.isEmpty() || this == NONE) {
      return List.of();
    }
    List<Schema> against = transitive ? existing : List.of(existing.get(existing.size() - 1));
    java.util.ArrayList<String> problems = new java.util.ArrayList<>();
    for (int i = 0; i < against.size(); i++) {
      Schema old = against.get(i);
      String which = transitive ? "version " + (i + 1) : "the latest version";
      if (backward) {
        describe(SchemaCompatibility.checkReaderWriterCompatibility(candidate, old), "new schema cannot read data written with " + which, problems);
      }
      if (forward) {
        describe(SchemaCompatibility.checkReaderWriterCompatibility(old, candidate), which + " cannot read data written with the new schema", problems);
      }
    }
    return problems;
  }

  public boolean isCompatible(Schema candidate, List<Schema> existing) {
    return problems(candidate, existing).isEmpty();
  }

  private static void describe(SchemaCompatibility.SchemaPairCompatibility result, String what, List<String> out) {
    if (result.getType() == SchemaCompatibilityType.COMPATIBLE) {
      return;
    }
    for (SchemaCompatibility.Incompatibility incompatibility : result.getResult().getIncompatibilities()) {
      out.add(what + ": " + incompatibility.getType() + " at " + incompatibility.getLocation() + " (" + incompatibility.getMessage() + ")");
    }
  }

  /** Parses a level name as the REST API spells it; throws {@link IllegalArgumentException} listing the valid ones. */
  public static CompatibilityLevel parse(String name) {
    for (CompatibilityLevel level : values()) {
      if (level.name().equalsIgnoreCase(name)) {
        return level;
      }
    }
    throw new IllegalArgumentException("unknown compatibility level '" + name + "'; valid: " + java.util.Arrays.toString(values()));
  }
}
