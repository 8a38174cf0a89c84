package io.quotaflow.cgroups;

/** The hierarchy lacks the controller an operation needs (e.g. a v2 tree without cpu). */
public class CgroupUnsupportedException extends CgroupException {

  public CgroupUnsupportedException(String message) {
    super(message);
  }
}
