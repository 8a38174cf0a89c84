package io.quotaflow.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runnable jar the platform team gets, {@code target/quotaflow.jar}, read after the shade plugin
 * built it (failsafe, {@code verify}): it ships the product and only the product. The test harness,
 * JUnit and JUnit's own dependencies are test-scope artifacts and must never end up in it.
 */
class QuotaflowJarIT {

  /** Where test code and its libraries live; an entry under any of them means test scope leaked. */
  private static final List<String> TEST_ONLY = List.of(
      "org/junit/", "org/opentest4j/", "org/apiguardian/",
      "io/quotaflow/testharness/", "io/quotaflow/embedded/junit/",
      "META-INF/maven/org.junit", "META-INF/maven/org.opentest4j", "META-INF/maven/org.apiguardian",
      "META-INF/maven/io.quotaflow/quotaflow-test-harness/", "META-INF/junit-");

  private static List<String> entries;

  @BeforeAll
  static void readTheJar() throws IOException {
    String property = System.getProperty("quotaflow.jar");
    assertThat(property).as("system property quotaflow.jar (set by cli/pom.xml's failsafe configuration)").isNotBlank();
    Path jar = Path.of(property);
    assertThat(Files.isRegularFile(jar)).as("%s exists: the shade plugin builds it in package, before this runs", jar).isTrue();
    try (JarFile file = new JarFile(jar.toFile())) {
      entries = file.stream().map(ZipEntry::getName).toList();
    }
  }

  @Test
  void shipsTheCommandTheBenchmarksAndTheEmbeddedBroker() {
    assertThat(entries).contains(
        "io/quotaflow/cli/QuotaflowCli.class",
        "io/quotaflow/benchmarks/BenchCommand.class",
        "io/quotaflow/embedded/EmbeddedPair.class");
    // bench engines: JMH finds its benchmarks through this list, which the shade plugin must keep.
    assertThat(entries).contains(
        "META-INF/BenchmarkList",
        "io/quotaflow/benchmarks/engines/jmh_generated/CpuMonitorBenchmark_step_jmhTest.class");
  }

  @Test
  void containsNoJUnitAndNoTestHarness() {
    assertThat(entries.stream().filter(QuotaflowJarIT::isTestOnly).toList())
        .as("test-scope classes and resources in quotaflow.jar")
        .isEmpty();
  }

  /** Multi-release copies ({@code META-INF/versions/9/org/junit/...}) count as what they are copies of. */
  private static boolean isTestOnly(String entry) {
    String name = entry.replaceFirst("^META-INF/versions/\\d+/", "");
    return TEST_ONLY.stream().anyMatch(name::startsWith);
  }
}
