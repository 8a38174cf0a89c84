package io.quotaflow.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class ProcessLifecycleTest {

  /** A process in miniature: starts, waits for the stop, then stops "gracefully" (prints that it did). */
  @Command(name = "miniature")
  static final class Miniature implements java.util.concurrent.Callable<Integer> {
    final ProcessLifecycle lifecycle = new ProcessLifecycle("miniature", Duration.ofSeconds(30));

    @Option(names = "--fail-on-stop")
    boolean failOnStop;

    @Option(names = "--wait", defaultValue = "0")
    int wait;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
      PrintWriter out = spec.commandLine().getOut();
      try (ProcessLifecycle.Running running = lifecycle.begin()) {
        out.println("started");
        out.flush();
        lifecycle.awaitStopRequest();
        if (failOnStop) {
          throw new ProcessException("the stop failed");
        }
        out.println("stopped cleanly");
        out.flush();
        return ProcessCommandLine.OK;
      }
    }

    /** Run by a JVM of its own in {@link #aSigtermWaitsForTheGracefulStopOnTheMainThread}. */
    public static void main(String[] args) {
      ProcessCommandLine.main(new Miniature(), args);
    }
  }

  private static CompletableFuture<Integer> runInBackground(Miniature command, StringWriter out, StringWriter err,
      String... args) {
    CommandLine line = ProcessCommandLine.of(command).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    return CompletableFuture.supplyAsync(() -> line.execute(args));
  }

  @Test
  void aRequestedStopEndsTheCommandWithExitCode0() throws Exception {
    Miniature command = new Miniature();
    StringWriter out = new StringWriter();
    CompletableFuture<Integer> exit = runInBackground(command, out, new StringWriter());
    command.lifecycle.requestStop();
    assertThat(exit.get(60, TimeUnit.SECONDS)).isEqualTo(ProcessCommandLine.OK);
    assertThat(out.toString()).endsWith("stopped cleanly" + System.lineSeparator());
  }

  @Test
  void aFailureWhileStoppingIsOneLineAndExitCode1() throws Exception {
    Miniature command = new Miniature();
    StringWriter err = new StringWriter();
    CompletableFuture<Integer> exit = runInBackground(command, new StringWriter(), err, "--fail-on-stop");
    command.lifecycle.requestStop();
    assertThat(exit.get(60, TimeUnit.SECONDS)).isEqualTo(ProcessCommandLine.FAILURE);
    assertThat(err.toString().lines()).containsExactly("quotaflow miniature: the stop failed");
  }

  @Test
  void aFlagPicocliCannotParseIsExitCode2() {
    StringWriter err = new StringWriter();
    int code = ProcessCommandLine.of(new Miniature()).setErr(new PrintWriter(err, true)).execute("--wait", "soon");
    assertThat(code).isEqualTo(ProcessCommandLine.USAGE);
    assertThat(err.toString()).startsWith("Invalid value for option '--wait'");
  }

  @Test
  void aUsageExceptionIsOneLineAndExitCode2() {
    @Command(name = "picky")
    class Picky implements Runnable {
      @Override
      public void run() {
        throw new UsageException("--node: not a valid id");
      }
    }
    StringWriter err = new StringWriter();
    int code = ProcessCommandLine.of(new Picky()).setErr(new PrintWriter(err, true)).execute();
    assertThat(code).isEqualTo(ProcessCommandLine.USAGE);
    assertThat(err.toString().lines()).containsExactly("quotaflow picky: --node: not a valid id");
  }

  @Test
  void theHookAsksForTheStopAndWaitsUntilTheMainThreadHasStopped() throws Exception {
    ProcessLifecycle lifecycle = new ProcessLifecycle("test", Duration.ofSeconds(60));
    ProcessLifecycle.Running running = lifecycle.begin();
    AtomicReference<Boolean> hookSawTheStop = new AtomicReference<>();
    // The hook's own code, on a thread of its own as the JVM runs it.
    Thread hook = new Thread(() -> hookSawTheStop.set(lifecycle.stopOnSignal()));
    hook.start();
    lifecycle.awaitStopRequest();
    assertThat(hook.isAlive()).as("the hook waits for the graceful stop").isTrue();
    assertThat(hookSawTheStop.get()).isNull();
    running.close();
    hook.join();
    assertThat(hookSawTheStop.get()).isTrue();
  }

  @Test
  void theHookGivesUpAfterItsBoundWhenTheStopHangs() {
    ProcessLifecycle lifecycle = new ProcessLifecycle("test", Duration.ofMillis(10));
    ProcessLifecycle.Running running = lifecycle.begin();
    try {
      assertThat(lifecycle.stopOnSignal()).as("released by its bound, not by a finished stop").isFalse();
      assertThat(lifecycle.isStopRequested()).isTrue();
    } finally {
      running.close();
    }
  }

  @Test
  void aLifecycleRunsOnce() {
    ProcessLifecycle lifecycle = new ProcessLifecycle("test", Duration.ofSeconds(1));
    lifecycle.begin().close();
    org.assertj.core.api.Assertions.assertThatThrownBy(lifecycle::begin).isInstanceOf(IllegalStateException.class)
        .hasMessage("the test process was started before; a lifecycle runs once");
  }

  /** A real SIGTERM to a JVM of its own: the graceful stop runs on its main thread before the JVM exits. */
  @Test
  void aSigtermWaitsForTheGracefulStopOnTheMainThread() throws Exception {
    Process child = new ProcessBuilder(List.of(ProcessHandle.current().info().command().orElse("java"),
        "-cp", System.getProperty("java.class.path"), Miniature.class.getName())).redirectErrorStream(true).start();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      assertThat(out.readLine()).isEqualTo("started");
      child.toHandle().destroy(); // SIGTERM, leaving our end of its output open (Process.destroy closes it)
      assertThat(out.readLine()).isEqualTo("stopped cleanly");
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(child.exitValue()).as("128 + SIGTERM, as the JVM exits after a signal").isEqualTo(143);
    } finally {
      child.destroyForcibly();
    }
  }
}
