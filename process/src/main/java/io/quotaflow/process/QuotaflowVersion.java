package io.quotaflow.process;

import picocli.CommandLine;

/**
 * What {@code -V} prints, for the {@code quotaflow} command and each process's own command: the
 * version in the jar's manifest ({@code quotaflow.jar} writes it), or that this is a development build.
 */
public final class QuotaflowVersion implements CommandLine.IVersionProvider {

  @Override
  public String[] getVersion() {
    String version = QuotaflowVersion.class.getPackage().getImplementationVersion();
    return new String[] {"quotaflow " + (version == null ? "(development build)" : version)};
  }
}
