package io.quotaflow.enforcer;

import io.quotaflow.cgroups.CgroupCpuRead;
import io.quotaflow.cgroups.CgroupCpuWrite;
import io.quotaflow.cgroups.KernelCpuLimits;

/** CPU values as results and logs print them: {@code shares 500, quota 50000/100000 us}. */
final class Values {

  private Values() {}

  static String of(CgroupCpuRead values) {
    StringBuilder out = new StringBuilder();
    if (values.shares() != null) {
      out.append("shares ").append(values.shares());
    }
    if (values.weight() != null) {
      out.append(out.isEmpty() ? "" : ", ").append("weight ").append(values.weight());
    }
    return out.append(", ").append(quota(values.quotaUs(), values.periodUs())).toString();
  }

  static String of(CgroupCpuWrite settings) {
    return "shares " + settings.shares() + ", weight " + settings.weight() + ", "
        + quota(settings.quotaUs(), settings.periodUs());
  }

  private static String quota(long quotaUs, long periodUs) {
    return (quotaUs == KernelCpuLimits.NO_QUOTA ? "no quota" : "quota " + quotaUs + " us") + " per " + periodUs + " us period";
  }
}
