package io.quotaflow.cgroups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlainFileTreeTest {

  @TempDir
  Path dir;

  @Test
  void aValueRewrittenTheWayTheModuleWritesIsAlwaysReadWhole() throws Exception {
    PlainFileTree tree = PlainFileTree.v1(dir, "qf").v1Task("qf", "t");
    String file = "cpu/qf/t/cpu.shares";
    AtomicBoolean writing = new AtomicBoolean(true);
    // KernfsIo's way, as often as an enforcer could: open with truncation, then write, leaving the
    // plain file empty, or half written, for a moment.
    Thread writer = new Thread(() -> {
      for (int i = 0; writing.get(); i++) {
        try {
          Files.writeString(tree.path(file), (i % 2 == 0 ? "700" : "1000") + "\n", StandardCharsets.US_ASCII,
              StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
          Thread.sleep(0, 200_000);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    writer.start();
    Set<String> seen = new HashSet<>();
    try {
      for (int i = 0; i < 20_000; i++) {
        seen.add(tree.readValue(file));
      }
    } finally {
      writing.set(false);
      writer.join();
    }
    assertThat(seen).isSubsetOf("1024", "700", "1000").contains("700", "1000");
  }

  @Test
  void aValueFileThatStaysEmptyIsAnError() {
    PlainFileTree tree = new PlainFileTree(dir).file("cpu/qf/t/cpu.shares", "");
    assertThatThrownBy(() -> tree.readValue("cpu/qf/t/cpu.shares")).hasMessageContaining("no steady value");
  }

  @Test
  void aWriteIsNeverShorterThanItsValueNorLongerThanIt() {
    PlainFileTree tree = new PlainFileTree(dir).file("cpu/qf/t/cpu.cfs_quota_us", "-1\n");
    tree.file("cpu/qf/t/cpu.cfs_quota_us", "103000\n").file("cpu/qf/t/cpu.cfs_quota_us", "5\n");
    assertThat(tree.read("cpu/qf/t/cpu.cfs_quota_us")).isEqualTo("5\n");
  }
}
