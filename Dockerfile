# One image for the `quotaflow` command: `docker run quotaflow:dev streams|collector|enforcer|...`.
#
# Built from the shaded jar of the project's own build (./mvnw -B -DskipTests package makes
# cli/target/quotaflow.jar), then `docker build -t quotaflow:dev .`.
#
# A Dockerfile rather than Jib: Jib pulls and pushes its base through a registry API, while the base
# here must be swappable for an image imported locally (deploy/local-base-image.sh, for machines
# that reach no container registry), and a Dockerfile builds on whatever the local engine has:
#   docker build --build-arg BASE_IMAGE=quotaflow-local/jre:17 -t quotaflow:dev .
# The base needs a Java 17 runtime on the PATH, /bin/sh, bash and useradd (eclipse-temurin has all three).
ARG BASE_IMAGE=eclipse-temurin:17-jre
FROM ${BASE_IMAGE}

# Non-root by default: the streams app (and the operator tools) need no privilege. The collector
# and the enforcer read and write cgroup files on the host, which only root may do, so compose runs
# those two with `user: "0"` (and no `privileged`: the host's /sys/fs/cgroup is bind-mounted rw).
RUN useradd --system --uid 10001 --home-dir /var/lib/quotaflow --create-home --shell /usr/sbin/nologin quotaflow \
 && mkdir -p /var/lib/quotaflow/streams /var/lib/quotaflow/enforcer \
 && chown -R quotaflow /var/lib/quotaflow

COPY cli/target/quotaflow.jar /opt/quotaflow/quotaflow.jar
COPY deploy/image/quotaflow deploy/image/quotaflow-health /usr/local/bin/

# /metrics and /health: streams 9401, collector 9102, enforcer 9403; the registry (quotaflow
# registry, quotaflow broker) 8081 and Kafka (quotaflow broker) 9092.
EXPOSE 9401 9102 9403 8081 9092

USER quotaflow
WORKDIR /var/lib/quotaflow
# The default command is the streams app's, so the default check is its /health; compose gives each
# service its own port. quotaflow-health: no curl in the base, and a JVM per check is too costly.
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 \
  CMD ["quotaflow-health", "9401"]
ENTRYPOINT ["quotaflow"]
CMD ["streams"]
