package io.quotaflow.process;

import java.util.Arrays;
import java.util.Locale;

/**
 * Where a process serves {@code /metrics} and {@code /health}: {@code --http-host} and
 * {@code --http-port}, else {@code QUOTAFLOW_<COMPONENT>_HTTP_HOST} and {@code _HTTP_PORT}, else the
 * component's default. The variables carry the component's name because a node runs a collector and
 * an enforcer side by side, often from one environment: a shared {@code QUOTAFLOW_HTTP_PORT} would
 * put both on one port. The old shared names are still read, after the new ones, with a warning.
 */
public record OpsAddress(String host, int port) {

  /** The variable of {@code component}'s setting, e.g. {@code QUOTAFLOW_COLLECTOR_HTTP_PORT}. */
  public static String variable(String component, String setting) {
    return "QUOTAFLOW_" + component.toUpperCase(Locale.ROOT) + "_HTTP_" + setting;
  }

  /**
   * @param deprecatedPrefixes old variables' prefixes, read after the component's own, e.g. {@code QUOTAFLOW_HTTP_}
   */
  public static OpsAddress resolve(String component, String hostFlag, Integer portFlag, OpsAddress defaults,
      Environment environment, Warnings warnings, String... deprecatedPrefixes) {
    String host = hostFlag != null ? hostFlag
        : environment.get(variable(component, "HOST"), warnings, names(deprecatedPrefixes, "HOST")).orElse(defaults.host());
    int port = portFlag != null ? portFlag
        : environment.get(variable(component, "PORT"), warnings, names(deprecatedPrefixes, "PORT"))
            .map(v -> Environment.integer(variable(component, "PORT"), v)).orElse(defaults.port());
    return new OpsAddress(host, port);
  }

  private static String[] names(String[] prefixes, String setting) {
    return Arrays.stream(prefixes).map(p -> p + setting).toArray(String[]::new);
  }
}
