package io.quotaflow.enforcer;

import io.quotaflow.cgroups.CgroupCpuRead;
import io.quotaflow.schemas.avro.EnforcementStatus;

/**
 * What acting on one decision came to: the result's status and detail, and what was read back.
 *
 * @param cpu the group's CPU values read afterwards, null when not read
 * @param frozen the freezer state read afterwards (true: FROZEN), null when not read
 * @param groupMissing the group does not exist under the parent (status REJECTED)
 * @param memoryBytes a reflex freeze: the memory usage the reflex read, bytes; null otherwise
 */
record Outcome(EnforcementStatus status, String detail, CgroupCpuRead cpu, Boolean frozen, boolean groupMissing,
    Long memoryBytes) {

  Outcome(EnforcementStatus status, String detail, CgroupCpuRead cpu, Boolean frozen, boolean groupMissing) {
    this(status, detail, cpu, frozen, groupMissing, null);
  }

  static Outcome of(EnforcementStatus status, String detail) {
    return new Outcome(status, detail, null, null, false);
  }

  Outcome withCpu(CgroupCpuRead values) {
    return new Outcome(status, detail, values, frozen, groupMissing, memoryBytes);
  }

  Outcome withFrozen(Boolean value) {
    return new Outcome(status, detail, cpu, value, groupMissing, memoryBytes);
  }

  Outcome withDetail(String text) {
    return new Outcome(status, text, cpu, frozen, groupMissing, memoryBytes);
  }

  Outcome withMemory(Long bytes) {
    return new Outcome(status, detail, cpu, frozen, groupMissing, bytes);
  }
}
