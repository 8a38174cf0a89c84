package io.quotaflow.streams.engine.pools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class PoolSpecValidationTest {

  @Test
  void validBurstAndRelaxedPoolsHaveNoErrors() {
    assertThat(PoolSpecValidation.errors(List.of(
        PoolSpec.burst("prod", 1000, 2000), PoolSpec.relaxed("research", 1000), PoolSpec.of("adhoc"))))
        .isEmpty();
  }

  @Test
  void burstGuaranteeOnARelaxedPoolIsRefused() {
    assertThat(PoolSpecValidation.errors(PoolSpec.relaxed("research", 1000).withBurstGuaranteeCpu(10)))
        .containsExactly("pool 'research': burst_guarantee_cpu cannot be set on a RELAXED pool (got 10.0);"
            + " use guarantee_type BURST, or set only resource_flow_cpu");
  }

  @Test
  void fieldErrorsLeaveOutTheRulesBetweenFields() {
    // quotaflow pool set checks single fields before it has read the pool's current type.
    PoolSpec relaxedWithBurst = PoolSpec.relaxed("research", 1000).withBurstGuaranteeCpu(10);
    assertThat(PoolSpecValidation.fieldErrors(relaxedWithBurst)).isEmpty();
    assertThat(PoolSpecValidation.fieldErrors(relaxedWithBurst.withWeight(0)))
        .containsExactly("pool 'research': weight must be a finite number > 0, got 0.0");
  }

  @Test
  void negativeAndNonFiniteValuesAreRefusedByName() {
    PoolSpec spec = new PoolSpec("p", null, -1, 0, GuaranteeType.BURST, Double.NaN,
        Double.POSITIVE_INFINITY, null, -5.0);

    assertThat(PoolSpecValidation.errors(spec)).containsExactly(
        "pool 'p': strong_guarantee_cpu must be a finite number >= 0, got -1.0",
        "pool 'p': weight must be a finite number > 0, got 0.0",
        "pool 'p': resource_flow_cpu must be a finite number >= 0, got NaN",
        "pool 'p': burst_guarantee_cpu must be a finite number >= 0, got Infinity",
        "pool 'p': limit_cpu must be a finite number >= 0, got -5.0");
  }

  @Test
  void parentIsRefusedBecausePoolsAreFlat() {
    assertThat(PoolSpecValidation.errors(PoolSpec.of("child").withParent("root")))
        .containsExactly("pool 'child': parent must be null (pools are flat), got 'root'");
  }

  @Test
  void relaxedMultiplierOutsideOneToTenIsRefused() {
    assertThat(PoolSpecValidation.errors(PoolSpec.relaxed("r", 1).withRelaxedShareMultiplierLimit(0.5)))
        .singleElement().asString().contains("relaxed_share_multiplier_limit must be in [1.0, 10.0]");
    assertThat(PoolSpecValidation.errors(PoolSpec.relaxed("r", 1).withRelaxedShareMultiplierLimit(10.0))).isEmpty();
  }

  @Test
  void poolIdsFollowTheIdRuleAndAreUnique() {
    assertThat(PoolSpecValidation.errors(List.of(PoolSpec.of(".hidden"), PoolSpec.of("a"), PoolSpec.of("a"))))
        .containsExactly(
            "pool id '.hidden' must match [A-Za-z0-9_:@-][A-Za-z0-9._:@-]{0,127}",
            "pool 'a' is configured twice");
  }

  @Test
  void requireValidListsEveryProblem() {
    assertThatThrownBy(() -> PoolSpecValidation.requireValid(List.of(
        PoolSpec.of("a").withStrongGuaranteeCpu(-1), PoolSpec.of("b").withWeight(-2))))
        .isInstanceOfSatisfying(InvalidPoolSpecException.class,
            e -> assertThat(e.errors()).hasSize(2))
        .hasMessageContaining("pool 'a': strong_guarantee_cpu")
        .hasMessageContaining("pool 'b': weight");
  }

  @Test
  void guaranteesAboveTheClusterAreWarningsNotErrors() {
    List<PoolSpec> specs = List.of(
        PoolSpec.burst("prod", 1000, 2000).withStrongGuaranteeCpu(500),
        PoolSpec.relaxed("research", 1000));

    assertThat(PoolSpecValidation.errors(specs)).isEmpty();
    assertThat(PoolSpecValidation.warnings(specs, 2000)).containsExactly(
        "strong guarantees and resource flows exceed total cluster resources:"
            + " strong_guarantee_cpu 500 + resource_flow_cpu 2000 > total_cpu 2000",
        "strong and burst guarantees exceed total cluster resources:"
            + " strong_guarantee_cpu 500 + burst_guarantee_cpu 2000 > total_cpu 2000; both are scaled by 0.8");
  }

  @Test
  void guaranteesThatFitTheClusterRaiseNoWarning() {
    assertThat(PoolSpecValidation.warnings(
        List.of(PoolSpec.burst("prod", 1000, 2000), PoolSpec.relaxed("research", 1000)), 2000)).isEmpty();
  }

  @Test
  void valuesThePoolTypeIgnoresAreWarned() {
    assertThat(PoolSpecValidation.warnings(List.of(PoolSpec.of("n").withResourceFlowCpu(5)), 100))
        .containsExactly("pool 'n': resource_flow_cpu and burst_guarantee_cpu are ignored: guarantee_type is NONE");
    assertThat(PoolSpecValidation.warnings(List.of(PoolSpec.burst("b", 0, 5)), 100))
        .singleElement().asString().contains("needs both resource_flow_cpu and burst_guarantee_cpu");
    assertThat(PoolSpecValidation.warnings(List.of(PoolSpec.burst("b", 10, 5)), 100))
        .singleElement().asString().contains("refills faster than the pool may spend it");
  }

  @Test
  void clusterSettingsRefuseImpossibleValues() {
    assertThatThrownBy(() -> new PoolClusterSettings(-1, 86400, 60, 3)).hasMessageContaining("total_cpu");
    assertThatThrownBy(() -> new PoolClusterSettings(1, 0, 60, 3)).hasMessageContaining("pool_capacity_saturation_period_s");
    assertThatThrownBy(() -> new PoolClusterSettings(1, 86400, 0, 3)).hasMessageContaining("smooth_period_s");
    assertThatThrownBy(() -> new PoolClusterSettings(1, 86400, 60, 0.5)).hasMessageContaining("relaxed_share_multiplier_limit");
    assertThatThrownBy(() -> new PoolLoad(-1, 0)).hasMessageContaining("demand_cpu");
    assertThatThrownBy(() -> new PoolVolumeState(Double.NaN, 0, null)).hasMessageContaining("accumulated_resource_volume_cpu");
  }
}
