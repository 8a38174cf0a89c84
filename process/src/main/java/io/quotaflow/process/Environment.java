package io.quotaflow.process;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The environment variables a command reads, read in code rather than through picocli's
 * {@code ${env:...}} defaults: so a command knows whether a value came from a flag, a variable or
 * a default (a flag or variable that overrides a {@code --kafka-config} file is reported), can
 * fall back to a deprecated name with a warning, and tests can set variables.
 *
 * <p>A blank value counts as unset, as a compose file's {@code ${X:-}} passes an empty one.
 */
public record Environment(Map<String, String> variables) {

  public Environment {
    variables = Map.copyOf(variables);
  }

  public static Environment system() {
    return new Environment(System.getenv());
  }

  public static Environment of(Map<String, String> variables) {
    return new Environment(variables);
  }

  /** The variable's value, trimmed; empty when unset or blank. */
  public Optional<String> get(String name) {
    String value = variables.get(name);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  /**
   * The variable {@code name}, else the first of {@code deprecatedNames} that is set, with a warning
   * that names the variable to use instead.
   */
  public Optional<String> get(String name, Warnings warnings, String... deprecatedNames) {
    Optional<String> value = get(name);
    if (value.isPresent()) {
      return value;
    }
    for (String old : deprecatedNames) {
      Optional<String> fallback = get(old);
      if (fallback.isPresent()) {
        warnings.warn(old + " is deprecated; use " + name);
        return fallback;
      }
    }
    return Optional.empty();
  }

  /** A variable's value as a whole number; a usage error naming the variable when it is not one. */
  public static int integer(String name, String value) {
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new UsageException(name + ": not a number: " + value);
    }
  }

  /** A variable's value as a duration ({@link Durations#parse}); a usage error naming the variable when it is not one. */
  public static Duration duration(String name, String value) {
    try {
      Duration parsed = Durations.parse(value);
      if (parsed.isNegative()) {
        throw new IllegalArgumentException("must not be negative, was " + value);
      }
      return parsed;
    } catch (IllegalArgumentException e) {
      throw new UsageException(name + ": " + e.getMessage(), e);
    }
  }
}
