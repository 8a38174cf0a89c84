package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quotaflow.cgroups.CgroupLayout;
import io.quotaflow.cgroups.MemoryStatRefresh;
import io.quotaflow.cgroups.PlainFileTree;
import io.quotaflow.schemas.avro.CgroupSample;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Directory names under the collector's parent that must never become a task id: a leading dot
 * ({@code ..} itself cannot be a directory name; {@code ...} and {@code .x} can), a name over 128
 * characters, bytes that are not UTF-8, a symlink pointing out of the parent. On a tree of plain
 * files laid out like a v1 mount, as FakeV1CgroupsTest does: each is refused and counted in
 * {@code quotaflow_collector_refused_groups}, never sampled, and the valid group beside them is.
 */
class HostileGroupNamesTest {

  @TempDir Path dir;

  @Test
  void hostileNamesAreRefusedCountedAndNeverSampled() throws Exception {
    PlainFileTree tree = PlainFileTree.v1(dir, "qf").v1Task("qf", "ok").v1Task("qf", "x".repeat(128));
    for (String controller : List.of("cpu", "cpuacct", "memory", "freezer")) {
      tree.v1Group(controller, "victim");
      tree.v1Group(controller, "qf/...");
      tree.v1Group(controller, "qf/.x");
      tree.v1Group(controller, "qf/" + "y".repeat(129));
      Files.createSymbolicLink(tree.path(controller + "/qf/evil"), tree.path(controller + "/victim"));
      Files.createSymbolicLink(tree.path(controller + "/qf/up"), Path.of(".."));
      // Java cannot name a path with bytes that are not UTF-8 here; the shell can.
      Process mkdir = new ProcessBuilder("sh", "-c", "mkdir \"$1/bad$(printf '\\377\\376')\"", "sh",
          tree.path(controller + "/qf").toString()).inheritIO().start();
      assertThat(mkdir.waitFor(10, TimeUnit.SECONDS) && mkdir.exitValue() == 0).as("mkdir of a non-UTF-8 name").isTrue();
    }
    List<String> victimBefore = victimFiles(tree);

    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    CollectorMetrics metrics = new CollectorMetrics(registry);
    List<CgroupSample> samples = new ArrayList<>();
    AtomicLong clock = new AtomicLong(1_000);
    try (Sampler sampler = new Sampler(tree.open(CgroupLayout.V1, "/qf"), MemoryStatRefresh.EVERY_READ,
        new SampleBuilder("node-a"), clock::incrementAndGet, (key, sample) -> samples.add(sample), metrics)) {
      metrics.watch(new DropOldestBuffer<>(10), new PublishState(), sampler);
      sampler.round();
      sampler.round();
      assertThat(samples).extracting(CgroupSample::getTask).as("only the valid groups, each round")
          .containsExactly("ok", "x".repeat(128), "ok", "x".repeat(128));
      double refused = registry.get("quotaflow.collector.refused.groups").gauge().value();
      System.out.printf("HostileGroupNamesTest: %d samples, %.0f entries refused per listing%n", samples.size(), refused);
      assertThat(refused).as("..., .x, 129 characters, not UTF-8, two symlinks").isEqualTo(6.0);
    }
    assertThat(victimFiles(tree)).as("the symlink's target is untouched").isEqualTo(victimBefore);
  }

  private static List<String> victimFiles(PlainFileTree tree) throws Exception {
    List<String> contents = new ArrayList<>();
    try (Stream<Path> files = Files.walk(tree.path("cpu/victim"))) {
      for (Path file : (Iterable<Path>) files.sorted()::iterator) {
        if (Files.isRegularFile(file)) {
          contents.add(file.getFileName() + "=" + Files.readString(file));
        }
      }
    }
    return contents;
  }
}
