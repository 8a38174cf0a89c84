package io.quotaflow.cgroups;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What applying {@link CgroupCpuWrite} did.
 *
 * @param requested the settings asked for
 * @param readBack the values read from the kernel afterwards; they equal the kernel-normalized
 *     request (else a {@link ReadBackMismatchException} is thrown instead)
 * @param writes the files written, in order; empty when {@code outcome} is UNCHANGED
 * @param quotaClamp the quota was lowered to what the parent groups allow (v1 only); {@code readBack}
 *     holds the quota written
 */
public record CpuApplyResult(
    TaskId task,
    WriteOutcome outcome,
    CgroupCpuWrite requested,
    CgroupCpuRead readBack,
    List<FileWrite> writes,
    Optional<QuotaClamp> quotaClamp) {

  public CpuApplyResult {
    writes = List.copyOf(writes);
    Objects.requireNonNull(quotaClamp, "quotaClamp");
  }
}
