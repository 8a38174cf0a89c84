package io.quotaflow.cgroups;

import java.util.List;

/**
 * What applying {@link CgroupCpuWrite} did.
 *
 * @param requested the settings asked for
 * @param readBack the values read from the kernel afterwards; they equal the kernel-normalized
 *     request (else a {@link ReadBackMismatchException} is thrown instead)
 * @param writes the files written, in order; empty when {@code outcome} is UNCHANGED
 * @param detail adjustments made on the way, e.g. a quota clamped to the parent's; empty if none
 */
public record CpuApplyResult(
    TaskId task,
    WriteOutcome outcome,
    CgroupCpuWrite requested,
    CgroupCpuRead readBack,
    List<FileWrite> writes,
    String detail) {

  public CpuApplyResult {
    writes = List.copyOf(writes);
  }
}
