package io.quotaflow.streams.engine.cpu;

import java.util.List;

/**
 * Settings or inputs that fail validation. Every problem is listed, not just the first, so an
 * operator tool can report them all before anything is written and a processor can put them in
 * one dead-letter header.
 */
public final class InvalidSettingsException extends IllegalArgumentException {

  private final List<String> problems;

  public InvalidSettingsException(List<String> problems) {
    super(String.join("; ", problems));
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("an InvalidSettingsException needs at least one problem");
    }
    this.problems = List.copyOf(problems);
  }

  /** One sentence per problem, each naming the field, the accepted range and the value given. */
  public List<String> problems() {
    return problems;
  }
}
