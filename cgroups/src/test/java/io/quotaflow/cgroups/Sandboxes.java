package io.quotaflow.cgroups;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.UUID;
import java.util.function.BooleanSupplier;

/** Test sandboxes on this machine's real cgroups; a test is skipped, saying why, where there are none to write. */
public final class Sandboxes {

  private Sandboxes() {}

  /** A sandbox under a fresh {@code quotaflow-test-<random>} parent below this JVM's own group. */
  public static CgroupSandbox openOrSkip(CgroupLayout layout) throws IOException {
    assumeTrue(Files.isDirectory(CgroupConfig.DEFAULT_ROOT), "no " + CgroupConfig.DEFAULT_ROOT + " on this machine");
    String parentName = "quotaflow-test-" + UUID.randomUUID().toString().substring(0, 8);
    CgroupConfig config = new CgroupConfig(CgroupConfig.DEFAULT_ROOT, layout, CgroupParent.underOwnGroup(parentName));
    try {
      return CgroupSandbox.open(config);
    } catch (CgroupWriteException e) {
      assumeTrue(false, "cgroups are not writable here (" + e.getMessage() + ")");
      throw e;
    } catch (CgroupException e) {
      assumeTrue(false, "no usable cgroup " + layout + " tree: " + e.getMessage());
      throw e;
    }
  }

  /** A v1 sandbox with the cpu and freezer hierarchies the enforcer writes, or the test is skipped. */
  public static CgroupSandbox openV1WithFreezerOrSkip() throws IOException {
    assumeTrue(Files.isDirectory(CgroupConfig.DEFAULT_ROOT.resolve("cpu"))
            && Files.isDirectory(CgroupConfig.DEFAULT_ROOT.resolve("freezer")),
        "no cgroup v1 cpu and freezer hierarchies under " + CgroupConfig.DEFAULT_ROOT + " on this machine");
    return openOrSkip(CgroupLayout.V1);
  }

  /** Polls until the condition holds; false on timeout. Tests wait on the kernel, never sleep a fixed time. */
  public static boolean eventually(Duration timeout, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (System.nanoTime() < deadline) {
      if (condition.getAsBoolean()) {
        return true;
      }
      Thread.sleep(20);
    }
    return condition.getAsBoolean();
  }
}
