package io.quotaflow.testharness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    public static void main(String[] args) throws InterruptedException {
      System.out.println("child says " + System.getenv("GREETING") + " " + String.join(",", args));
      System.out.flush();
      if (args.length > 0 && args[0].equals("exit")) {
        System.exit(Integer.parseInt(args[1]));
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
