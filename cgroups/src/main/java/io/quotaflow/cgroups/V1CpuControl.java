package io.quotaflow.cgroups;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * v1 {@code cpu.shares}, {@code cpu.cfs_period_us} and {@code cpu.cfs_quota_us} of a task group.
 *
 * <p>Order matters on v1: the kernel checks each write against the ancestors' quota ratio
 * ({@code tg_cfs_schedulable_down}), so the period goes first (DESIGN §2) and the quota is clamped
 * to what the ancestors allow. When a shorter period makes the old quota exceed an ancestor's
 * ratio (EINVAL), the quota is written first and the period after, as runc does.
 */
final class V1CpuControl {

  static final String SHARES = "cpu.shares";
  static final String PERIOD = "cpu.cfs_period_us";
  static final String QUOTA = "cpu.cfs_quota_us";

  private final GroupTree tree;
  private final Hierarchy cpu;

  V1CpuControl(GroupTree tree, Hierarchy cpu) {
    this.tree = tree;
    this.cpu = cpu;
  }

  CgroupCpuRead read(TaskId task) throws IOException {
    return read(tree.groupDir(cpu, task));
  }

  private static CgroupCpuRead read(Path dir) throws IOException {
    return new CgroupCpuRead(KernfsIo.readLong(dir.resolve(SHARES)), null,
        KernfsIo.readLong(dir.resolve(QUOTA)), KernfsIo.readLong(dir.resolve(PERIOD)));
  }

  CpuApplyResult apply(TaskId task, CgroupCpuWrite settings) throws IOException {
    Path dir = tree.groupDir(cpu, task);
    CgroupCpuRead before = read(dir);
    long period = settings.periodUs();
    long quota = settings.quotaUs();
    Optional<QuotaClamp> clamp = Optional.empty();
    if (quota != KernelCpuLimits.NO_QUOTA) {
      long limit = ancestorQuotaLimitUs(period);
      if (limit != KernelCpuLimits.NO_QUOTA && quota > limit) {
        clamp = Optional.of(new QuotaClamp(quota, limit, period));
        quota = limit;
      }
    }
    List<FileWrite> writes = new ArrayList<>();
    if (before.shares() != settings.kernelShares()) {
      write(dir, SHARES, before.shares(), settings.shares(), writes);
    }
    boolean periodChanges = before.periodUs() != period;
    boolean quotaChanges = before.quotaUs() != quota;
    boolean periodDeferred = false;
    if (periodChanges) {
      try {
        write(dir, PERIOD, before.periodUs(), period, writes);
      } catch (CgroupWriteException e) {
        if (e.error() != KernelError.EINVAL || !quotaChanges) {
          throw e;
        }
        periodDeferred = true;
      }
    }
    if (quotaChanges) {
      try {
        write(dir, QUOTA, before.quotaUs(), quota, writes);
      } catch (CgroupWriteException e) {
        // A new period with the old quota is a limit nobody asked for: put the period back.
        if (periodChanges && !periodDeferred) {
          restore(dir, PERIOD, before.periodUs(), e);
        }
        throw e;
      }
    }
    if (periodDeferred) {
      try {
        write(dir, PERIOD, before.periodUs(), period, writes);
      } catch (CgroupWriteException e) {
        restore(dir, QUOTA, before.quotaUs(), e);
        throw e;
      }
    }
    CgroupCpuRead after = read(dir);
    expect(dir, SHARES, settings.kernelShares(), after.shares());
    expect(dir, PERIOD, period, after.periodUs());
    expect(dir, QUOTA, quota, after.quotaUs());
    return new CpuApplyResult(task, writes.isEmpty() ? WriteOutcome.UNCHANGED : WriteOutcome.APPLIED,
        settings, after, writes, clamp);
  }

  /**
   * The largest quota at {@code periodUs} that every ancestor with a quota admits (the kernel
   * compares quota/period ratios, so a parent's raw quota is only the bound at equal periods),
   * or NO_QUOTA when no ancestor has one.
   */
  long ancestorQuotaLimitUs(long periodUs) throws IOException {
    long limit = KernelCpuLimits.NO_QUOTA;
    for (Path dir = cpu.parent(); dir != null && dir.startsWith(cpu.root()); dir = dir.getParent()) {
      String quotaText = KernfsIo.readOrNull(dir.resolve(QUOTA));
      String periodText = KernfsIo.readOrNull(dir.resolve(PERIOD));
      if (quotaText == null || periodText == null) {
        continue; // not created yet (the parent before createParent)
      }
      long quota = KernfsIo.parseLong(dir.resolve(QUOTA), quotaText);
      long period = KernfsIo.parseLong(dir.resolve(PERIOD), periodText);
      if (quota > 0 && period > 0) {
        long allowed = BigInteger.valueOf(quota).multiply(BigInteger.valueOf(periodUs))
            .divide(BigInteger.valueOf(period)).min(BigInteger.valueOf(Long.MAX_VALUE)).longValue();
        limit = limit == KernelCpuLimits.NO_QUOTA ? allowed : Math.min(limit, allowed);
      }
    }
    return limit;
  }

  private void write(Path dir, String file, long before, long value, List<FileWrite> writes)
      throws IOException {
    String text = Long.toString(value);
    tree.write(dir, file, text);
    writes.add(new FileWrite(file, Long.toString(before), text));
  }

  private void restore(Path dir, String file, long value, CgroupWriteException failure) {
    try {
      tree.write(dir, file, Long.toString(value));
    } catch (IOException e) {
      failure.addSuppressed(e);
    }
  }

  private static void expect(Path dir, String file, long expected, long readBack)
      throws ReadBackMismatchException {
    if (expected != readBack) {
      throw new ReadBackMismatchException(dir.resolve(file), Long.toString(expected),
          Long.toString(readBack));
    }
  }
}
