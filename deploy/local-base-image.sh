#!/bin/sh
# Builds the base images the compose stack needs from Debian packages, for machines where no
# public container registry is reachable (so eclipse-temurin:17-jre and prom/prometheus cannot be
# pulled). debootstrap + `docker import` needs only the Debian mirror.
#
#   deploy/local-base-image.sh            # quotaflow-local/jre:17
#   deploy/local-base-image.sh prometheus # also quotaflow-local/prometheus (Debian's package)
#
# Needs root (debootstrap), docker and debootstrap (apt-get install -y docker.io debootstrap).
set -eu
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=${DEBIAN_SUITE:-bookworm}

# import NAME PACKAGES: a minbase root file system with PACKAGES, imported as image NAME.
# Skipped when the image exists already, so the check script can call this every time.
import() {
  name=$1; packages=$2; shift 2
  if docker image inspect "$name" >/dev/null 2>&1; then
    echo "$name exists"; return 0
  fi
  dir=$(mktemp -d /tmp/quotaflow-rootfs.XXXXXX)
  trap 'rm -rf "$dir"' EXIT
  debootstrap --variant=minbase --include="$packages" "$SUITE" "$dir" "$MIRROR" >/tmp/debootstrap-$$.log 2>&1 \
    || { tail -20 /tmp/debootstrap-$$.log; exit 1; }
  # Keep the image small: the package cache and lists are not needed at run time.
  rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
  # Prometheus runs as nobody and writes /prometheus; a volume mounted there takes this ownership.
  if [ "$name" = quotaflow-local/prometheus ]; then
    mkdir -p "$dir/prometheus" && chown 65534:65534 "$dir/prometheus"
  fi
  tar -C "$dir" -c . | docker import "$@" - "$name"
  rm -rf "$dir"; trap - EXIT
  echo "$name imported"
}

import quotaflow-local/jre:17 openjdk-17-jre-headless,ca-certificates \
  -c 'ENV LANG=C.UTF-8' -c 'CMD ["/bin/sh"]'
if [ "${1:-}" = prometheus ]; then
  # Debian's prometheus package; the paths match prom/prometheus's so one config serves both.
  # wget for the health check, as prom/prometheus has (busybox).
  import quotaflow-local/prometheus prometheus,wget \
    -c 'USER nobody' -c 'EXPOSE 9090' \
    -c 'ENTRYPOINT ["/usr/bin/prometheus"]' \
    -c 'CMD ["--config.file=/etc/prometheus/prometheus.yml","--storage.tsdb.path=/prometheus"]'
fi
