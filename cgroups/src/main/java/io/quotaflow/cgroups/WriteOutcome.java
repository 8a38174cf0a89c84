package io.quotaflow.cgroups;

/** Whether a write was needed: files are written only when the kernel's value differs. */
public enum WriteOutcome {
  APPLIED,
  UNCHANGED
}
