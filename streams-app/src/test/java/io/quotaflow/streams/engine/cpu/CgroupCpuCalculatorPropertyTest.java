package io.quotaflow.streams.engine.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.quotaflow.cgroups.KernelCpuLimits;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Scale;

class CgroupCpuCalculatorPropertyTest {

  private final CgroupCpuCalculator settings = new CgroupCpuCalculator();

  @Provide
  Arbitrary<CgroupCpuTunables> configs() {
    return Combinators.combine(
            Arbitraries.longs().between(KernelCpuLimits.MIN_PERIOD_US, KernelCpuLimits.MAX_PERIOD_US),
            Arbitraries.doubles().between(0.5, 3).ofScale(6).withSpecialValue(1.03),
            Arbitraries.of(true, false),
            Arbitraries.doubles().between(0, 2).ofScale(6),
            Arbitraries.doubles().between(0, 2).ofScale(6),
            Arbitraries.of(true, false),
            Arbitraries.of(true, false))
        .as(CgroupCpuTunables::new);
  }

  @Provide
  Arbitrary<NodeCpu> nodes() {
    return Arbitraries.integers().between(1, 4).map(NodeCpu::new);
  }

  @Property(tries = 500)
  void sharesAndWeightAreMonotoneInTheEffectiveLimit(
      @ForAll("configs") CgroupCpuTunables config, @ForAll("nodes") NodeCpu node,
      @ForAll @Scale(6) @DoubleRange(min = 0.001, max = 512) double ncpus,
      @ForAll @Scale(6) @DoubleRange(min = 0, max = 512) double a,
      @ForAll @Scale(6) @DoubleRange(min = 0, max = 512) double b) {
    CgroupCpuTarget lower = settings.compute(config, new TaskCpu(ncpus, ncpus, Math.min(a, b)), node);
    CgroupCpuTarget higher = settings.compute(config, new TaskCpu(ncpus, ncpus, Math.max(a, b)), node);
    assertThat(lower.shares()).isLessThanOrEqualTo(higher.shares());
    assertThat(lower.weight()).isLessThanOrEqualTo(higher.weight());
    assertThat(lower.quotaUs()).isEqualTo(higher.quotaUs()); // the quota ignores the soft limit
  }

  @Property(tries = 500)
  void quotaIsMonotoneInTheHardLimit(
      @ForAll("configs") CgroupCpuTunables config, @ForAll("nodes") NodeCpu node,
      @ForAll @Scale(6) @DoubleRange(min = 0, max = 512) double a,
      @ForAll @Scale(6) @DoubleRange(min = 0, max = 512) double b) {
    CgroupCpuTunables enforced = new CgroupCpuTunables(config.cfsPeriodUs(), config.cfsQuotaFudgeFactor(), true,
        config.zeroCpusSharesFraction(), config.zeroCpusQuotaFraction(), config.ncpusAreCores(),
        config.useHyperthreads());
    CgroupCpuTarget lower = settings.compute(enforced, new TaskCpu(1, Math.min(a, b), 0.5), node);
    CgroupCpuTarget higher = settings.compute(enforced, new TaskCpu(1, Math.max(a, b), 0.5), node);
    assertThat(lower.quotaUs()).isLessThanOrEqualTo(higher.quotaUs());
    assertThat(lower.shares()).isEqualTo(higher.shares()); // the weight ignores the hard limit
  }

  @Property(tries = 500)
  void anUncappedQuotaCoversTheFudgedLimitByLessThanOneMicrosecond(
      @ForAll("configs") CgroupCpuTunables config,
      @ForAll @Scale(6) @DoubleRange(min = 0.01, max = 512) double hardLimitCpu,
      @ForAll("threadsPerCore") int threadsPerCore) {
    CgroupCpuTunables enforced = new CgroupCpuTunables(config.cfsPeriodUs(), config.cfsQuotaFudgeFactor(), true,
        config.zeroCpusSharesFraction(), config.zeroCpusQuotaFraction(), config.ncpusAreCores(),
        config.useHyperthreads());
    NodeCpu node = new NodeCpu(threadsPerCore);
    long quotaUs = settings.compute(enforced, new TaskCpu(hardLimitCpu, hardLimitCpu, hardLimitCpu), node)
        .quotaUs();

    double multiplier = config.ncpusAreCores() && config.useHyperthreads() ? threadsPerCore : 1;
    double exactUs = config.cfsPeriodUs() * hardLimitCpu * multiplier * config.cfsQuotaFudgeFactor();
    double slackUs = 1e-9 * exactUs;
    if (exactUs > KernelCpuLimits.MIN_QUOTA_US) {
      assertThat((double) quotaUs).isBetween(exactUs - slackUs, exactUs + 1 + slackUs);
    } else {
      assertThat(quotaUs).isEqualTo(KernelCpuLimits.MIN_QUOTA_US);
    }
  }

  @Provide
  Arbitrary<Integer> threadsPerCore() {
    return Arbitraries.integers().between(1, 4);
  }
}
