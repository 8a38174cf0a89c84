package io.quotaflow.cgroups;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Where task groups live, per hierarchy: either a named group under the group this process runs
 * in (the DESIGN default, {@code quotaflow}), or the same fixed path in every hierarchy.
 */
public sealed interface CgroupParent {

  String DEFAULT_NAME = "quotaflow";

  /** {@code quotaflow} under this process's own group in each hierarchy. */
  static CgroupParent defaultParent() throws IOException {
    return underOwnGroup(DEFAULT_NAME);
  }

  static CgroupParent underOwnGroup(String name) throws IOException {
    return new UnderOwnGroup(name, ProcSelfCgroup.readSelf());
  }

  /** A path relative to each hierarchy's root, e.g. {@code /batch/quotaflow}. */
  static CgroupParent at(String path) {
    return new Fixed(path);
  }

  /**
   * The one reading of a {@code --parent} value, for every node process: empty for the default
   * ({@value #DEFAULT_NAME} under this process's own group in each hierarchy), a single name for that
   * name under the own group, or an absolute cgroup path (from each hierarchy's root) such as
   * {@code /batch/quotaflow}. A relative path ({@code a/b}) is refused: under the own group or from
   * the root, the user has to say which.
   *
   * @throws IllegalArgumentException for a relative path or an unsafe component
   * @throws IOException when the own group cannot be read from {@code /proc/self/cgroup}
   */
  static CgroupParent parse(String value) throws IOException {
    if (value == null || value.isBlank()) {
      return defaultParent();
    }
    String trimmed = value.trim();
    if (trimmed.startsWith("/")) {
      return at(trimmed);
    }
    if (trimmed.contains("/")) {
      throw new IllegalArgumentException("the parent is a group name under this process's own group, or an"
          + " absolute path starting with '/': " + Printable.of(trimmed));
    }
    return underOwnGroup(trimmed);
  }

  /** The parent's path components below the root of a hierarchy holding these controllers. */
  List<String> componentsFor(CgroupVersion version, List<String> controllers) throws CgroupException;

  /** A single group name under the process's group in {@code self}. */
  record UnderOwnGroup(String name, ProcSelfCgroup self) implements CgroupParent {
    public UnderOwnGroup {
      if (!TaskId.isValid(name)) {
        throw new IllegalArgumentException("parent group name must be one safe path component: "
            + Printable.of(name));
      }
    }

    @Override
    public List<String> componentsFor(CgroupVersion version, List<String> controllers)
        throws CgroupException {
      String own = version == CgroupVersion.V2 ? self.v2PathOrThrow() : self.v1PathFor(controllers);
      List<String> components = new ArrayList<>(Fixed.components(own));
      components.add(name);
      return components;
    }
  }

  /** The same path below every hierarchy's root. */
  record Fixed(String path) implements CgroupParent {
    public Fixed {
      if (components(path).isEmpty()) {
        throw new IllegalArgumentException("the parent cannot be the hierarchy root itself: " + path);
      }
    }

    @Override
    public List<String> componentsFor(CgroupVersion version, List<String> controllers) {
      return components(path);
    }

    /** Splits a cgroup path, refusing {@code .}, {@code ..} and unsafe names in any component. */
    static List<String> components(String path) {
      List<String> out = new ArrayList<>();
      for (String part : path.split("/")) {
        if (part.isEmpty()) {
          continue;
        }
        if (!TaskId.isValid(part)) {
          throw new IllegalArgumentException("unsafe component " + Printable.of(part)
              + " in cgroup path " + Printable.of(path));
        }
        out.add(part);
      }
      return out;
    }
  }
}
