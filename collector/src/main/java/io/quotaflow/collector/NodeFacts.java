package io.quotaflow.collector;

import io.quotaflow.cgroups.CgroupVersion;
import io.quotaflow.schemas.avro.NodeStatus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * What a node offers, for {@code NodeStatus}: memory from {@code /proc/meminfo}, online CPUs from
 * {@code /sys/devices/system/cpu/online}, threads per core from the first CPU's topology. Parsing
 * is separate from reading so the formats are tested on fixed text.
 */
public record NodeFacts(long memoryTotalBytes, int cpus, int threadsPerCore) {

  public static final Path PROC = Path.of("/proc");
  public static final Path SYS = Path.of("/sys");

  public NodeFacts {
    if (memoryTotalBytes <= 0 || cpus < 1 || threadsPerCore < 1) {
      throw new IllegalArgumentException("implausible node facts: memory " + memoryTotalBytes
          + " bytes, " + cpus + " cpus, " + threadsPerCore + " threads per core");
    }
  }

  /** This node's facts. */
  public static NodeFacts read() throws IOException {
    return read(PROC, SYS);
  }

  /** The facts under another {@code /proc} and {@code /sys} (a container's, or a test's). */
  public static NodeFacts read(Path proc, Path sys) throws IOException {
    long memory = memTotalBytes(Files.readString(proc.resolve("meminfo"), StandardCharsets.US_ASCII));
    Path cpu = sys.resolve("devices/system/cpu");
    String online = readOrNull(cpu.resolve("online"));
    // Without sysfs, the JVM's count is the best left (it may be lower under an affinity mask).
    int cpus = online == null ? Runtime.getRuntime().availableProcessors() : cpuListSize(online);
    int first = online == null ? 0 : firstCpu(online);
    String siblings = readOrNull(cpu.resolve("cpu" + first + "/topology/thread_siblings_list"));
    int threads = siblings == null ? 1 : cpuListSize(siblings);
    return new NodeFacts(memory, cpus, threads);
  }

  public NodeStatus toStatus(String node, long tsMs, CgroupVersion version) {
    return new NodeStatus(node, tsMs, memoryTotalBytes, cpus, threadsPerCore,
        version == CgroupVersion.V1 ? 1 : 2);
  }

  /** {@code MemTotal:  24682416 kB} in bytes (the kernel's "kB" is KiB). */
  static long memTotalBytes(String meminfo) {
    for (String line : meminfo.split("\n")) {
      if (line.startsWith("MemTotal:")) {
        String[] parts = line.substring("MemTotal:".length()).trim().split("\\s+");
        long value = Long.parseLong(parts[0]);
        return parts.length > 1 && parts[1].equalsIgnoreCase("kB") ? value * 1024 : value;
      }
    }
    throw new IllegalArgumentException("no MemTotal line in /proc/meminfo");
  }

  /** The number of CPUs in a kernel CPU list such as {@code 0-3,8-11} or {@code 0,2}. */
  static int cpuListSize(String list) {
    int count = 0;
    for (String range : list.trim().split(",")) {
      if (range.isEmpty()) {
        continue;
      }
      int dash = range.indexOf('-');
      if (dash < 0) {
        Integer.parseInt(range);
        count++;
      } else {
        int from = Integer.parseInt(range.substring(0, dash));
        int to = Integer.parseInt(range.substring(dash + 1));
        if (to < from) {
          throw new IllegalArgumentException("bad CPU range " + range + " in " + list.trim());
        }
        count += to - from + 1;
      }
    }
    if (count == 0) {
      throw new IllegalArgumentException("empty CPU list");
    }
    return count;
  }

  static int firstCpu(String list) {
    String first = list.trim().split(",")[0];
    int dash = first.indexOf('-');
    return Integer.parseInt(dash < 0 ? first : first.substring(0, dash));
  }

  private static String readOrNull(Path file) throws IOException {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      return null;
    }
  }
}
