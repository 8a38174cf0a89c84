package io.quotaflow.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.cgroups.CgroupVersion;
import io.quotaflow.schemas.avro.NodeStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeFactsTest {

  @Test
  void memTotalIsInKibibytes() {
    assertThat(NodeFacts.memTotalBytes("MemTotal:       24682416 kB\nMemFree:  1 kB\n")).isEqualTo(24_682_416L * 1024);
    assertThatThrownBy(() -> NodeFacts.memTotalBytes("MemFree: 1 kB\n")).hasMessageContaining("MemTotal");
  }

  @Test
  void cpuListsCountRangesAndSingles() {
    assertThat(NodeFacts.cpuListSize("0-1\n")).isEqualTo(2);
    assertThat(NodeFacts.cpuListSize("0")).isEqualTo(1);
    assertThat(NodeFacts.cpuListSize("0-3,8-11")).isEqualTo(8);
    assertThat(NodeFacts.cpuListSize("0,32")).isEqualTo(2);
    assertThat(NodeFacts.firstCpu("2-5,7")).isEqualTo(2);
    assertThatThrownBy(() -> NodeFacts.cpuListSize("3-1")).hasMessageContaining("bad CPU range");
  }

  @Test
  void readsAHyperthreadedNodesFiles(@TempDir Path dir) throws Exception {
    Path proc = Files.createDirectories(dir.resolve("proc"));
    Files.writeString(proc.resolve("meminfo"), "MemTotal:       65536 kB\n");
    Path cpu = Files.createDirectories(dir.resolve("sys/devices/system/cpu"));
    Files.writeString(cpu.resolve("online"), "0-15\n");
    Files.createDirectories(cpu.resolve("cpu0/topology"));
    Files.writeString(cpu.resolve("cpu0/topology/thread_siblings_list"), "0,8\n");
    NodeFacts facts = NodeFacts.read(proc, dir.resolve("sys"));
    assertThat(facts).isEqualTo(new NodeFacts(65_536L * 1024, 16, 2));
    assertThat(facts.toStatus("n1", 77, CgroupVersion.V2)).isEqualTo(new NodeStatus("n1", 77L, 65_536L * 1024, 16, 2, 2));
  }

  @Test
  void thisNodesFactsAgreeWithTheJvm() throws Exception {
    NodeFacts facts = NodeFacts.read();
    assertThat(facts.cpus()).isGreaterThanOrEqualTo(Runtime.getRuntime().availableProcessors());
    assertThat(facts.threadsPerCore()).isBetween(1, 8);
    assertThat(facts.memoryTotalBytes()).isGreaterThan(Runtime.getRuntime().maxMemory() / 4);
  }
}
