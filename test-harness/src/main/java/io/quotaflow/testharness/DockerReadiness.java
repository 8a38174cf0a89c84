package io.quotaflow.testharness;

import com.github.dockerjava.api.exception.NotFoundException;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;

/**
 * Whether the harness's container can run here, and if not, why: asked before anything is started,
 * so that a missing engine or image is named at once instead of surfacing as a pull timeout.
 */
final class DockerReadiness {
  private DockerReadiness() {}

  /** Empty when a Docker engine answers and has {@code image}; otherwise the reason, with what to do about it. */
  static Optional<String> whyNot(String image) {
    DockerClientFactory docker = DockerClientFactory.instance();
    boolean available;
    try {
      available = docker.isDockerAvailable();
    } catch (RuntimeException e) {
      // Testcontainers starts its reaper (Ryuk, an image from a public registry) with its first client; where
      // no registry is reachable that pull fails, after its own timeout.
      return Optional.of("Testcontainers could not set up its Docker client (" + e.getMessage() + "); where no "
          + "registry is reachable, set TESTCONTAINERS_RYUK_DISABLED=true so that it does not pull its reaper image "
          + "(the harness stops its container itself)");
    }
    if (!available) {
      return Optional.of("no Docker engine is reachable (Testcontainers found none through DOCKER_HOST, "
          + "/var/run/docker.sock or its other strategies); start dockerd, or unset " + HarnessSource.MODE
          + " to use the embedded broker and registry");
    }
    try {
      docker.client().inspectImageCmd(image).exec();
      return Optional.empty();
    } catch (NotFoundException e) {
      // Never pulled: the project's image exists only where it was built (and no registry may be reachable).
      return Optional.of("the Docker engine has no image " + image + " (" + HarnessSource.IMAGE + "); build it first: "
          + "./mvnw -B -DskipTests package && docker build -t " + image + " .");
    }
  }
}
