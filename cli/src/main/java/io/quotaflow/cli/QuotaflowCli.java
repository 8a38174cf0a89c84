package io.quotaflow.cli;

import io.quotaflow.benchmarks.BenchCommand;
import io.quotaflow.collector.CollectorCommand;
import io.quotaflow.enforcer.EnforcerCommand;
import io.quotaflow.process.FormatLocale;
import io.quotaflow.process.ProcessCommandLine;
import io.quotaflow.process.QuotaflowVersion;
import io.quotaflow.schemas.avro.ClusterConfig;
import io.quotaflow.schemas.avro.PoolConfig;
import io.quotaflow.schemas.avro.TaskSpec;
import io.quotaflow.streams.StreamsCommand;
import picocli.CommandLine.Command;
import java.util.Map;
import picocli.CommandLine;

/** The {@code quotaflow} command: one entry point for every component and operator tool. */
@Command(
    name = "quotaflow",
    mixinStandardHelpOptions = true,
    versionProvider = QuotaflowVersion.class,
    description = "Quotaflow: a resource governor for batch clusters, built on Kafka Streams.",
    subcommands = {
        DemoCommand.class,
        BrokerCommand.class,
        RegistryCommand.class,
        CollectorCommand.class,
        StreamsCommand.class,
        EnforcerCommand.class,
        SpecCommand.class,
        PoolCommand.class,
        ClusterCommand.class,
        ProfileCommand.class,
        SimulateCommand.class,
        ReplayCommand.class,
        BenchCommand.class,
        CommandLine.HelpCommand.class,
    })
public final class QuotaflowCli implements Runnable {

  @CommandLine.Spec
  CommandLine.Model.CommandSpec spec;

  public static void main(String[] args) {
    FormatLocale.pin();
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code, so tests can call it without exiting the JVM. */
  public static int run(String... args) {
    return execute(commandLine(), args);
  }

  /**
   * The {@code quotaflow} command line. Every command's help ends with the logging variables, since
   * every command reads them (through logback.xml, the demo and the embedded broker) and no flag does.
   */
  static CommandLine commandLine() {
    CommandLine root = new CommandLine(new QuotaflowCli());
    // bench replay lives here, not in the benchmarks module: the replay classes it times are the cli's.
    root.getSubcommands().get("bench").addSubcommand(new ReplayBench());
    // bench reflex too: the stepping allocator and the node stack it drives are the cli's.
    root.getSubcommands().get("bench").addSubcommand(new ReflexBench());
    addFooter(root, LOGGING_VARIABLES);
    return root;
  }

  private static final String[] LOGGING_VARIABLES = {
      "",
      "Logging (on standard error): QUOTAFLOW_LOG_LEVEL sets Quotaflow's level (default INFO; the demo's WARN),",
      "QUOTAFLOW_KAFKA_LOG_LEVEL Kafka's (default WARN, its connection errors ERROR; the demo's ERROR).",
  };

  private static void addFooter(CommandLine command, String[] lines) {
    String[] footer = command.getCommandSpec().usageMessage().footer();
    String[] joined = java.util.Arrays.copyOf(footer, footer.length + lines.length);
    System.arraycopy(lines, 0, joined, footer.length, lines.length);
    command.getCommandSpec().usageMessage().footer(joined);
    command.getSubcommands().values().stream().distinct().forEach(sub -> addFooter(sub, lines));
  }

  /** Runs {@code args} on a prepared command line (tests give it their own output streams). */
  static int execute(CommandLine commandLine, String... args) {
    ProcessCommandLine.configure(commandLine);
    SchemaFields.addToHelp(set(commandLine, "spec"), TaskSpec.getClassSchema(),
        Map.of("node", "from NODE/TASK", "task", "from NODE/TASK"));
    SchemaFields.addToHelp(set(commandLine, "pool"), PoolConfig.getClassSchema(), Map.of("pool", "from POOL"));
    SchemaFields.addToHelp(set(commandLine, "cluster"), ClusterConfig.getClassSchema(),
        Map.of("cluster", "from --cluster, or the config in force"));
    return commandLine.execute(args);
  }

  private static CommandLine set(CommandLine root, String tool) {
    return root.getSubcommands().get(tool).getSubcommands().get("set");
  }

  @Override
  public void run() {
    throw new CommandLine.ParameterException(spec.commandLine(), "Missing command: try 'quotaflow --help'.");
  }
}
