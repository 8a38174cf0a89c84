package io.quotaflow.enforcer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.process.Durations;
import io.quotaflow.process.Environment;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The enforcer's own flags: durations, their deprecated millisecond forms, and its ops address. */
class EnforcerOptionsTest {

  private final StringWriter err = new StringWriter();

  private EnforcerOptions parse(Map<String, String> env, String... args) {
    EnforcerCommand command = new EnforcerCommand();
    new CommandLine(command).setErr(new PrintWriter(err, true)).parseArgs(args);
    command.options.environment = Environment.of(env);
    return command.options;
  }

  @Test
  void theTimeOptionsAreDurations() {
    Enforcer.Settings settings = parse(Map.of(), "--lease-thaw-interval", "500ms", "--freeze-timeout", "2m").settings("n1", Map.of());
    assertThat(settings.leaseThawInterval()).isEqualTo(Duration.ofMillis(500));
    assertThat(settings.freezeTimeout()).isEqualTo(Duration.ofMinutes(2));
    Enforcer.Settings defaults = parse(Map.of()).settings("n1", Map.of());
    assertThat(Durations.format(defaults.leaseThawInterval())).isEqualTo(EnforcerOptions.DEFAULT_LEASE_THAW_INTERVAL);
    assertThat(Durations.format(defaults.freezeTimeout())).isEqualTo(EnforcerOptions.DEFAULT_FREEZE_TIMEOUT);
    assertThat(parse(Map.of(), "--lease-thaw-interval", "0").settings("n1", Map.of()).leaseThawInterval()).isZero();
    assertThatThrownBy(() -> parse(Map.of(), "--freeze-timeout", "0s"))
        .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("must be positive, was 0s");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void theReflexRunsAtTenHertzWithATenSecondLeaseUnlessToldOtherwise() {
    Enforcer.Settings defaults = parse(Map.of()).settings("n1", Map.of());
    assertThat(defaults.reflexHz()).isEqualTo(10);
    assertThat(Durations.format(defaults.reflexLease())).isEqualTo(EnforcerOptions.DEFAULT_REFLEX_LEASE);
    assertThat(defaults.reflexLease()).isEqualTo(Enforcer.Settings.DEFAULT_REFLEX_LEASE);
    Enforcer.Settings told = parse(Map.of(), "--reflex-hz", "0", "--reflex-lease", "2s").settings("n1", Map.of());
    assertThat(told.reflexHz()).isZero();
    assertThat(told.reflexLease()).isEqualTo(Duration.ofSeconds(2));
    assertThat(parse(Map.of("QUOTAFLOW_ENFORCER_REFLEX_LEASE", "3s")).settings("n1", Map.of()).reflexLease())
        .isEqualTo(Duration.ofSeconds(3));
    assertThatThrownBy(() -> parse(Map.of(), "--reflex-hz", "-1").settings("n1", Map.of()))
        .hasMessage("--reflex-hz must be 0 (off) to 1000, was -1");
    assertThatThrownBy(() -> parse(Map.of(), "--reflex-lease", "0s"))
        .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("must be positive, was 0s");
  }

  @Test
  void theMillisecondFlagsStillWorkWithAWarning() {
    Enforcer.Settings settings = parse(Map.of(), "--lease-thaw-interval-ms", "1500", "--freeze-timeout-ms", "20000")
        .settings("n1", Map.of());
    assertThat(settings.leaseThawInterval()).isEqualTo(Duration.ofMillis(1500));
    assertThat(settings.freezeTimeout()).isEqualTo(Duration.ofSeconds(20));
    assertThat(err.toString().lines()).containsExactly(
        "quotaflow enforcer: warning: --lease-thaw-interval-ms is deprecated; use --lease-thaw-interval 1500ms",
        "quotaflow enforcer: warning: --freeze-timeout-ms is deprecated; use --freeze-timeout 20s");
    assertThatThrownBy(() -> parse(Map.of(), "--freeze-timeout-ms", "0").settings("n1", Map.of()))
        .hasMessage("--freeze-timeout-ms must be > 0, was 0");
  }

  @Test
  void everyOptionCanComeFromTheEnforcersOwnVariablesAndTheFlagWins() {
    Map<String, String> env = Map.of("QUOTAFLOW_ENFORCER_FREEZE_TIMEOUT", "3s", "QUOTAFLOW_ENFORCER_LEASE_THAW_INTERVAL", "250ms");
    Enforcer.Settings fromEnv = parse(env).settings("n1", Map.of());
    assertThat(fromEnv.freezeTimeout()).isEqualTo(Duration.ofSeconds(3));
    assertThat(fromEnv.leaseThawInterval()).isEqualTo(Duration.ofMillis(250));
    assertThat(parse(env, "--freeze-timeout", "7s").settings("n1", Map.of()).freezeTimeout()).isEqualTo(Duration.ofSeconds(7));
    assertThatThrownBy(() -> parse(Map.of("QUOTAFLOW_ENFORCER_FREEZE_TIMEOUT", "0")).settings("n1", Map.of()))
        .hasMessage("QUOTAFLOW_ENFORCER_FREEZE_TIMEOUT must be more than 0, was 0s");
    assertThatThrownBy(() -> parse(Map.of("QUOTAFLOW_ENFORCER_FREEZE_TIMEOUT", "soon")).settings("n1", Map.of()))
        .hasMessageStartingWith("QUOTAFLOW_ENFORCER_FREEZE_TIMEOUT: ");
  }

  @Test
  void theOpsAddressHasTheEnforcersOwnVariables() {
    EnforcerOptions own = parse(Map.of("QUOTAFLOW_ENFORCER_HTTP_PORT", "9503", "QUOTAFLOW_COLLECTOR_HTTP_PORT", "9102"));
    assertThat(own.httpPort()).isEqualTo(9503);
    assertThat(own.httpHost()).isEqualTo("0.0.0.0");
    assertThat(parse(Map.of("QUOTAFLOW_ENFORCER_HTTP_PORT", "9503"), "--http-port", "0").httpPort()).isZero();
    assertThat(err.toString()).isEmpty();
    EnforcerOptions old = parse(Map.of("QUOTAFLOW_HTTP_PORT", "9603"));
    assertThat(old.httpPort()).isEqualTo(9603);
    assertThat(old.httpPort()).isEqualTo(9603);
    assertThat(err.toString().lines())
        .containsExactly("quotaflow enforcer: warning: QUOTAFLOW_HTTP_PORT is deprecated; use QUOTAFLOW_ENFORCER_HTTP_PORT");
  }
}
