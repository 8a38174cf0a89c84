package io.quotaflow.testharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

class ChildJvmTest {
  @TempDir
  Path logs;

  /** The child: prints its environment's greeting, then waits to be ended (or exits with the code given). */
  public static final class Child {
    public static void main(String[] args) throws InterruptedException, IOException {
      System.out.println("child says " + System.getenv("GREETING") + " " + String.join(",", args));
      System.out.flush();
      if (args.length > 0 && args[0].equals("exit")) {
        System.exit(Integer.parseInt(args[1]));
      }
      if (args.length > 0 && args[0].equals("temp-file")) {
        // What RocksDB does with its JNI library at every start: a temporary file deleted on a normal exit only.
        File file = File.createTempFile("native-", ".so");
        file.deleteOnExit();
        System.out.println("temp file " + file.getAbsolutePath());
        System.out.flush();
      }
      Thread.sleep(Long.MAX_VALUE);
    }
  }

  @Test
  void sigkillEndsTheChildAtOnce() throws Exception {
    try (ChildJvm child = ChildJvm.start("child", logs, Child.class.getName(), List.of("a", "b"), Map.of("GREETING", "hello"))) {
      assertThat(child.awaitOutput(Pattern.compile("child says (\\w+) a,b"), Duration.ofSeconds(30)).group(1)).isEqualTo("hello");
      child.kill();
      assertThat(child.isAlive()).isFalse();
      assertThat(child.awaitExit(Duration.ZERO)).hasValue(128 + 9);
    }
  }

  @Test
  void aKilledChildLeavesNothingInTheTemporaryDirectory() throws Exception {
    try (ChildJvm child = ChildJvm.start("child", logs, Child.class.getName(), List.of("temp-file"), Map.of())) {
      Path file = Path.of(child.awaitOutput(Pattern.compile("temp file (\\S+)"), Duration.ofSeconds(30)).group(1));
      assertThat(file).exists().hasParent(child.tmpDir());
      assertThat(child.tmpDir().startsWith(logs)).as("outside the kept logs").isFalse();

      child.kill(); // SIGKILL: no exit hook deletes the file

      assertThat(file).doesNotExist();
      assertThat(child.tmpDir()).doesNotExist();
    }
  }

  @Test
  void aChildThatExitedByItselfHasItsTemporaryDirectoryDeletedWhenSeenGone() throws Exception {
    try (ChildJvm child = ChildJvm.start("quitter", logs, Child.class.getName(), List.of("exit", "0"), Map.of())) {
      assertThat(child.awaitExit(Duration.ofSeconds(30))).hasValue(0);
      assertThat(child.tmpDir()).doesNotExist();
    }
  }

  @Test
  void stopSendsSigterm() throws Exception {
    try (ChildJvm child = ChildJvm.start("child", logs, Child.class.getName(), List.of(), Map.of())) {
      child.awaitOutput(Pattern.compile("child says"), Duration.ofSeconds(30));
      assertThat(child.stop()).isEqualTo(128 + 15);
    }
  }

  @Test
  void waitingForOutputFailsWithTheLogWhenTheChildExitsFirst() throws Exception {
    try (ChildJvm child = ChildJvm.start("quitter", logs, Child.class.getName(), List.of("exit", "3"), Map.of())) {
      assertThatThrownBy(() -> child.awaitOutput(Pattern.compile("never printed"), Duration.ofSeconds(30)))
          .isInstanceOf(AssertionFailedError.class)
          .hasMessageContaining("quitter exited (3)")
          .hasMessageContaining("child says null exit,3");
    }
  }
}
