package io.quotaflow.streams.engine.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class MonitorSettingsTest {

  private static MonitorSettings with(UnaryOperator<MonitorSettings.Builder> change) {
    return change.apply(MonitorSettings.builder()).build();
  }

  @Test
  void defaultsAreYtsaurusCodeDefaults() {
    MonitorSettings d = MonitorSettings.DEFAULTS;
    assertThat(d.enableCpuReclaim()).isFalse();
    assertThat(d.checkPeriodMs()).isEqualTo(1000);
    assertThat(d.startDelayMs()).isZero();
    assertThat(d.smoothingFactor()).isEqualTo(0.1);
    assertThat(d.relativeUpperBound()).isEqualTo(0.9);
    assertThat(d.relativeLowerBound()).isEqualTo(0.6);
    assertThat(d.increaseCoefficient()).isEqualTo(1.45);
    assertThat(d.decreaseCoefficient()).isEqualTo(0.97);
    assertThat(d.voteWindowSize()).isEqualTo(5);
    assertThat(d.voteDecisionThreshold()).isEqualTo(3);
    assertThat(d.minCpuLimit()).isEqualTo(1.0);
  }

  static Stream<Arguments> outOfRange() {
    return Stream.of(
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.checkPeriodMs(-1),
            "job_cpu_monitor.check_period_ms must be >= 0, was -1"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.startDelayMs(-5),
            "job_cpu_monitor.start_delay_ms must be >= 0, was -5"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.smoothingFactor(1.5),
            "job_cpu_monitor.smoothing_factor must be in [0, 1], was 1.5"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.smoothingFactor(-0.1),
            "job_cpu_monitor.smoothing_factor must be in [0, 1], was -0.1"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.relativeUpperBound(1.01),
            "job_cpu_monitor.relative_upper_bound must be in [0, 1], was 1.01"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.relativeLowerBound(-0.5),
            "job_cpu_monitor.relative_lower_bound must be in [0, 1], was -0.5"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.increaseCoefficient(0.99),
            "job_cpu_monitor.increase_coefficient must be in [1, 2], was 0.99"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.increaseCoefficient(2.5),
            "job_cpu_monitor.increase_coefficient must be in [1, 2], was 2.5"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.decreaseCoefficient(1.1),
            "job_cpu_monitor.decrease_coefficient must be in [0, 1], was 1.1"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.voteWindowSize(0),
            "job_cpu_monitor.vote_window_size must be > 0, was 0"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.voteDecisionThreshold(0),
            "job_cpu_monitor.vote_decision_threshold must be > 0, was 0"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.minCpuLimit(2),
            "job_cpu_monitor.min_cpu_limit must be in [0, 1], was 2.0"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.smoothingFactor(Double.NaN),
            "job_cpu_monitor.smoothing_factor must be in [0, 1], was NaN"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.minCpuLimit(Double.POSITIVE_INFINITY),
            "job_cpu_monitor.min_cpu_limit must be in [0, 1], was Infinity"),
        Arguments.of((UnaryOperator<MonitorSettings.Builder>) b -> b.decreaseCoefficient(Double.NaN),
            "job_cpu_monitor.decrease_coefficient must be in [0, 1], was NaN"));
  }

  @ParameterizedTest
  @MethodSource("outOfRange")
  void aValueOutOfRangeIsRejectedNamingTheFieldAndTheRange(UnaryOperator<MonitorSettings.Builder> change,
                               String message) {
    assertThatThrownBy(() -> with(change))
        .isInstanceOf(InvalidSettingsException.class)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void rangesAreInclusiveAtBothEnds() {
    assertThatCode(() -> with(b -> b.smoothingFactor(0).relativeUpperBound(0).relativeLowerBound(0)
        .increaseCoefficient(1).decreaseCoefficient(0).minCpuLimit(0)
        .voteWindowSize(1).voteDecisionThreshold(1).checkPeriodMs(0).startDelayMs(0)))
        .doesNotThrowAnyException();
    assertThatCode(() -> with(b -> b.smoothingFactor(1).relativeUpperBound(1).relativeLowerBound(1)
        .increaseCoefficient(2).decreaseCoefficient(1).minCpuLimit(1)))
        .doesNotThrowAnyException();
  }

  @Test
  void everyProblemIsListedAtOnce() {
    InvalidSettingsException e = catchThrowableOfType(InvalidSettingsException.class,
        () -> with(b -> b.smoothingFactor(3).voteWindowSize(-1)));
    assertThat(e.problems()).containsExactly(
        "job_cpu_monitor.smoothing_factor must be in [0, 1], was 3.0",
        "job_cpu_monitor.vote_window_size must be > 0, was -1");
    assertThat(e).hasMessage(String.join("; ", e.problems()));
  }

  @Test
  void relationsBetweenFieldsAreNotCheckedAsInYtsaurus() {
    assertThatCode(() -> with(b -> b.relativeLowerBound(0.9).relativeUpperBound(0.5)))
        .doesNotThrowAnyException();
    assertThatCode(() -> with(b -> b.voteWindowSize(5).voteDecisionThreshold(10)))
        .doesNotThrowAnyException();
  }

  @Test
  void toBuilderCopiesEveryField() {
    MonitorSettings custom = with(b -> b.enableCpuReclaim(true).checkPeriodMs(250).startDelayMs(30_000)
        .smoothingFactor(0.3).relativeUpperBound(0.8).relativeLowerBound(0.4).increaseCoefficient(1.2)
        .decreaseCoefficient(0.9).voteWindowSize(7).voteDecisionThreshold(4).minCpuLimit(0.5));
    assertThat(custom.toBuilder().build()).isEqualTo(custom);
    assertThat(custom).isNotEqualTo(MonitorSettings.DEFAULTS);
  }

  @Test
  void floorIsTheSmallerOfMinCpuLimitAndTheHardLimit() {
    assertThat(MonitorSettings.DEFAULTS.floorCpu(4)).isEqualTo(1.0);
    assertThat(MonitorSettings.DEFAULTS.floorCpu(0.3)).isEqualTo(0.3);
    assertThat(with(b -> b.minCpuLimit(0.2)).floorCpu(4)).isEqualTo(0.2);
  }
}
