package io.quotaflow.cgroups;

/**
 * Refused for safety (DESIGN "Safety"): a symlink, a path that is not a direct child of the
 * configured parent, or a file outside the write allowlist. Nothing was written.
 */
public class UnsafeCgroupPathException extends CgroupException {

  public UnsafeCgroupPathException(String message) {
    super(message);
  }
}
