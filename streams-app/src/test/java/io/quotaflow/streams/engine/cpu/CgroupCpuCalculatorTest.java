package io.quotaflow.streams.engine.cpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.quotaflow.cgroups.KernelCpuLimits;
import org.junit.jupiter.api.Test;

class CgroupCpuCalculatorTest {

  private static final CgroupCpuCalculator SETTINGS = new CgroupCpuCalculator();
  private static final CgroupCpuTunables DEFAULTS = CgroupCpuTunables.DEFAULTS;
  private static final CgroupCpuTunables ENFORCED =
      new CgroupCpuTunables(100_000, 1.03, true, 0.002, 0.2, false, false);
  private static final NodeCpu NODE = new NodeCpu(1);

  private static TaskCpu task(double cpus) {
    return new TaskCpu(cpus, cpus, cpus);
  }

  @Test
  void fourCpusGetFourThousandSharesAndNoQuotaByDefault() {
    CgroupCpuTarget values = SETTINGS.compute(DEFAULTS, task(4), NODE);
    assertThat(values).isEqualTo(new CgroupCpuTarget(4000, 391, -1, 100_000));
    assertThat(values.hasQuota()).isFalse();
  }

  @Test
  void enforcedQuotaIsPeriodTimesTheHardLimitTimesTheFudgeFactor() {
    // The PBS hook's own test numbers: ncpus=4 -> quota 412000 at period 100000.
    assertThat(SETTINGS.compute(ENFORCED, task(4), NODE).quotaUs()).isEqualTo(412_000);
    assertThat(SETTINGS.compute(ENFORCED, task(1.5), NODE).quotaUs()).isEqualTo(154_500);
  }

  @Test
  void quotaIsRoundedUp() {
    // 100000 x 0.3333 x 1.03 = 34329.9
    assertThat(SETTINGS.compute(ENFORCED, task(0.3333), NODE).quotaUs()).isEqualTo(34_330);
  }

  @Test
  void sharesFollowTheEffectiveLimitAndTheQuotaFollowsTheHardLimit() {
    CgroupCpuTarget values = SETTINGS.compute(ENFORCED, new TaskCpu(4, 4, 1.5), NODE);
    assertThat(values.shares()).isEqualTo(1500);
    assertThat(values.weight()).isEqualTo(146); // 146.48
    assertThat(values.quotaUs()).isEqualTo(412_000);
  }

  @Test
  void sharesAreTruncatedLikePythonsInt() {
    assertThat(SETTINGS.compute(DEFAULTS, new TaskCpu(2, 2, 1.9999), NODE).shares()).isEqualTo(1999);
    assertThat(CgroupCpuCalculator.shares(0.0039)).isEqualTo(3);
  }

  @Test
  void zeroCpuTaskIsWeightlessAndAlwaysGetsAQuota() {
    CgroupCpuTarget values = SETTINGS.compute(DEFAULTS, new TaskCpu(0, 0, 0), NODE);
    // int(100000 x 0.2 x 1.03) = 20600, about 0.206 CPU: the PBS hook's worked example.
    assertThat(values).isEqualTo(new CgroupCpuTarget(2, 1, 20_600, 100_000));
  }

  @Test
  void zeroCpuSharesFollowTheFractionButNeverGoBelowTwo() {
    CgroupCpuTunables tenth = new CgroupCpuTunables(100_000, 1.03, false, 0.01, 0.2, false, false);
    assertThat(SETTINGS.compute(tenth, task(0), NODE).shares()).isEqualTo(10);
    CgroupCpuTunables tiny = new CgroupCpuTunables(100_000, 1.03, false, 0.001, 0.2, false, false);
    assertThat(SETTINGS.compute(tiny, task(0), NODE).shares()).isEqualTo(2);
    CgroupCpuTunables huge = new CgroupCpuTunables(100_000, 1.03, false, 1000, 0.2, false, false);
    assertThat(SETTINGS.compute(huge, task(0), NODE).shares()).isEqualTo(262_144);
  }

  @Test
  void zeroCpuTasksIgnoreTheirEffectiveLimit() {
    assertThat(SETTINGS.compute(DEFAULTS, new TaskCpu(0, 3, 3), NODE).shares()).isEqualTo(2);
    assertThat(SETTINGS.compute(DEFAULTS, new TaskCpu(0, 3, 3), NODE).quotaUs()).isEqualTo(20_600);
  }

  @Test
  void sharesAndWeightClampAtTheKernelBounds() {
    assertThat(SETTINGS.compute(DEFAULTS, new TaskCpu(1, 1, 0.001), NODE))
        .extracting(CgroupCpuTarget::shares, CgroupCpuTarget::weight).containsExactly(2L, 1L);
    assertThat(SETTINGS.compute(DEFAULTS, task(300), NODE))
        .extracting(CgroupCpuTarget::shares, CgroupCpuTarget::weight).containsExactly(262_144L, 10_000L);
    assertThat(SETTINGS.compute(DEFAULTS, task(1e300), NODE).shares()).isEqualTo(262_144);
  }

  @Test
  void weightFollowsTheSharesByTheKernelsConversion() {
    // 1500 x 100 / 1024 = 146.48; the conversion itself is tested in cgroups (KernelCpuLimitsTest).
    assertThat(SETTINGS.compute(DEFAULTS, new TaskCpu(4, 4, 1.5), NODE).weight()).isEqualTo(146);
    assertThat(SETTINGS.compute(DEFAULTS, new TaskCpu(4, 4, 1.024), NODE).weight()).isEqualTo(100);
  }

  @Test
  void hyperthreadsMultiplyTheQuotaOnlyWhenNcpusAreCores() {
    NodeCpu smt2 = new NodeCpu(2);
    CgroupCpuTunables both = new CgroupCpuTunables(100_000, 1.03, true, 0.002, 0.2, true, true);
    CgroupCpuTunables coresOnly = new CgroupCpuTunables(100_000, 1.03, true, 0.002, 0.2, true, false);
    CgroupCpuTunables threadsOnly = new CgroupCpuTunables(100_000, 1.03, true, 0.002, 0.2, false, true);

    assertThat(SETTINGS.compute(both, task(4), smt2).quotaUs()).isEqualTo(824_000);
    assertThat(SETTINGS.compute(coresOnly, task(4), smt2).quotaUs()).isEqualTo(412_000);
    assertThat(SETTINGS.compute(threadsOnly, task(4), smt2).quotaUs()).isEqualTo(412_000);
    // Shares are not multiplied: every task on the node would scale alike.
    assertThat(SETTINGS.compute(both, task(4), smt2).shares()).isEqualTo(4000);
  }

  @Test
  void zeroCpuQuotaIsAFractionOfOneThreadEvenWithHyperthreads() {
    CgroupCpuTunables both = new CgroupCpuTunables(100_000, 1.03, false, 0.002, 0.2, true, true);
    assertThat(SETTINGS.compute(both, task(0), new NodeCpu(2)).quotaUs()).isEqualTo(20_600);
  }

  @Test
  void quotaIsAtLeastOneMillisecond() {
    // 100000 x 0.001 x 1.03 = 103 usec: the kernel rejects a quota below 1000.
    assertThat(SETTINGS.compute(ENFORCED, task(0.001), NODE).quotaUs()).isEqualTo(1000);
    assertThat(SETTINGS.compute(ENFORCED, new TaskCpu(1, 0, 0), NODE).quotaUs()).isEqualTo(1000);
  }

  @Test
  void quotaIsAtMostTheKernelMaximum() {
    assertThat(SETTINGS.compute(ENFORCED, task(1e12), NODE).quotaUs()).isEqualTo(KernelCpuLimits.MAX_QUOTA_US);
  }

  @Test
  void periodIsAlwaysWrittenEvenWithoutAQuota() {
    CgroupCpuTunables shortPeriod = new CgroupCpuTunables(20_000, 1.03, false, 0.002, 0.2, false, false);
    assertThat(SETTINGS.compute(shortPeriod, task(2), NODE))
        .isEqualTo(new CgroupCpuTarget(2000, 195, -1, 20_000));
  }

  @Test
  void invalidClusterSettingsAreRejectedNamingTheField() {
    assertThatThrownBy(() -> new CgroupCpuTunables(999, 1.03, false, 0.002, 0.2, false, false))
        .isInstanceOf(InvalidSettingsException.class)
        .hasMessage("cluster_config.cfs_period_us must be in [1000, 1000000], was 999");
    assertThatThrownBy(() -> new CgroupCpuTunables(1_000_001, 1.03, false, 0.002, 0.2, false, false))
        .hasMessageContaining("cfs_period_us");
    assertThatThrownBy(() -> new CgroupCpuTunables(100_000, 0, false, 0.002, 0.2, false, false))
        .hasMessage("cluster_config.cfs_quota_fudge_factor must be finite and > 0, was 0.0");
    assertThatThrownBy(() -> new CgroupCpuTunables(100_000, Double.NaN, false, 0.002, 0.2, false, false))
        .hasMessageContaining("cfs_quota_fudge_factor");
    assertThatThrownBy(() -> new CgroupCpuTunables(100_000, 1.03, false, -0.1, -1, false, false))
        .isInstanceOfSatisfying(InvalidSettingsException.class, e -> assertThat(e.problems()).containsExactly(
            "cluster_config.zero_cpus_shares_fraction must be finite and >= 0, was -0.1",
            "cluster_config.zero_cpus_quota_fraction must be finite and >= 0, was -1.0"));
  }

  @Test
  void invalidTaskAndNodeValuesAreRejectedNamingTheField() {
    assertThatThrownBy(() -> new TaskCpu(-1, 1, 1)).hasMessageContaining("task.ncpus");
    assertThatThrownBy(() -> new TaskCpu(1, Double.POSITIVE_INFINITY, 1)).hasMessageContaining("task.hard_limit_cpu");
    assertThatThrownBy(() -> new TaskCpu(1, 1, Double.NaN)).hasMessageContaining("task.effective_limit_cpu");
    assertThatThrownBy(() -> new NodeCpu(0)).hasMessageContaining("node.threads_per_core");
  }

  @Test
  void valuesTheKernelWouldRejectCannotBeBuilt() {
    assertThatThrownBy(() -> new CgroupCpuTarget(1, 1, -1, 100_000)).hasMessageContaining("cgroup.shares");
    assertThatThrownBy(() -> new CgroupCpuTarget(2, 10_001, -1, 100_000)).hasMessageContaining("cgroup.weight");
    assertThatThrownBy(() -> new CgroupCpuTarget(2, 1, 999, 100_000)).hasMessageContaining("cgroup.quota_us");
    assertThatThrownBy(() -> new CgroupCpuTarget(2, 1, -1, 500)).hasMessageContaining("cgroup.period_us");
  }
}
