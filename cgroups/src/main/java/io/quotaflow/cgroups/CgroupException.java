package io.quotaflow.cgroups;

import java.io.IOException;

/** Base of the failures this module reports; an {@link IOException} so I/O callers handle it. */
public class CgroupException extends IOException {

  public CgroupException(String message) {
    super(message);
  }

  public CgroupException(String message, Throwable cause) {
    super(message, cause);
  }
}
