package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every command of {@code quotaflow}, walked: each option that takes a value says what the value is,
 * and each {@code QUOTAFLOW_*} variable the product reads is shown in a usage help and in the
 * variables table of docs/operations.md.
 */
class CommandLineConventionsTest {

  private static final Pattern VARIABLE = Pattern.compile("QUOTAFLOW_[A-Z0-9_]*[A-Z0-9](?![A-Za-z0-9_])");
  // Modules whose code runs in the product; test-harness variables (QUOTAFLOW_TEST_*) are the build's, not an operator's.
  private static final List<String> PRODUCT_MODULES =
      List.of("process", "schemas", "cgroups", "embedded", "collector", "streams-app", "enforcer", "benchmarks", "cli");

  private static List<CommandLine> allCommands() {
    List<CommandLine> all = new ArrayList<>();
    collect(QuotaflowCli.commandLine(), all);
    return all;
  }

  private static void collect(CommandLine command, List<CommandLine> all) {
    all.add(command);
    command.getSubcommands().values().stream().distinct().forEach(sub -> collect(sub, all));
  }

  @Test
  void everyOptionWithAValueHasAParamLabelThatSaysWhatItIs() {
    List<String> unlabelled = new ArrayList<>();
    for (CommandLine command : allCommands()) {
      for (OptionSpec option : command.getCommandSpec().options()) {
        if (option.arity().max() > 0 && option.paramLabel().startsWith("<")) {
          unlabelled.add(command.getCommandSpec().qualifiedName() + " " + option.longestName() + "=" + option.paramLabel());
        }
      }
    }
    assertThat(unlabelled).isEmpty();
  }

  @Test
  void everyVariableTheProductReadsIsInAUsageHelpAndInTheOperationsTable() throws IOException {
    StringBuilder helps = new StringBuilder();
    for (CommandLine command : allCommands()) {
      helps.append(command.getUsageMessage(CommandLine.Help.Ansi.OFF));
    }
    Set<String> read = variablesIn(PRODUCT_MODULES);
    assertThat(read).contains("QUOTAFLOW_BOOTSTRAP", "QUOTAFLOW_COLLECTOR_HTTP_PORT", "QUOTAFLOW_LOG_LEVEL");
    Set<String> missingFromHelp = new TreeSet<>();
    for (String variable : read) {
      if (!helps.toString().contains(variable)) {
        missingFromHelp.add(variable);
      }
    }
    assertThat(missingFromHelp).as("variables read but shown in no --help").isEmpty();
    String operations = Files.readString(Path.of("..", "docs", "operations.md"));
    Set<String> missingFromDocs = new TreeSet<>();
    for (String variable : read) {
      if (!operations.contains("`" + variable + "`")) {
        missingFromDocs.add(variable);
      }
    }
    assertThat(missingFromDocs).as("variables read but not in docs/operations.md").isEmpty();
  }

  /** The variables named in the main sources and resources of {@code modules} (surefire runs in the module's directory). */
  private static Set<String> variablesIn(List<String> modules) throws IOException {
    Set<String> found = new TreeSet<>();
    for (String module : modules) {
      Path main = Path.of("..", module, "src", "main");
      try (Stream<Path> files = Files.walk(main)) {
        for (Path file : files.filter(Files::isRegularFile).filter(f -> f.toString().endsWith(".java")
            || f.toString().endsWith(".xml")).toList()) {
          Matcher m = VARIABLE.matcher(Files.readString(file));
          while (m.find()) {
            found.add(m.group());
          }
        }
      }
    }
    return found;
  }
}
