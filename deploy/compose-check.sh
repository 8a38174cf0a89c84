#!/bin/bash
# Runs docker-compose.yml for real on this machine and checks it end to end:
#   builds the jar and the image (on a base built from Debian packages where the public one cannot
#   be pulled), brings the stack up (with docker-compose.local.yml where the public images cannot be
#   pulled), waits until every service is healthy, then checks that
#   - Prometheus scrapes every component (each streams replica, the collector, the enforcer),
#   - samples flow (collector) and decisions are made (streams),
#   - a real cgroup on this host is written by the containerised enforcer: a task group with a busy
#     process, given a spec with `quotaflow spec set`, gets its cpu.shares changed,
# and brings everything down (containers, network, volumes, the cgroups it made).
#
# Needs root (cgroups), a Docker engine, docker-compose (or `docker compose`), curl and jq.
# Variables: STREAMS_REPLICAS (2), SKIP_PACKAGE=1 (reuse cli/target/quotaflow.jar), MVN_OFFLINE=1
# (./mvnw -o), LOCAL=0|1 (auto: 1 when eclipse-temurin:17-jre cannot be pulled),
# SCREENSHOTS=DIR (headless Chromium shots of Prometheus before going down), KEEP=1 (leave it up).
# Exit 0 when every check passed, 1 when one failed, 3 when no Docker engine is reachable.
set -euo pipefail
cd "$(dirname "$0")/.."

STREAMS_REPLICAS=${STREAMS_REPLICAS:-2}
PROJECT=quotaflow-check
PARENT=quotaflow-check          # the task groups' parent on the host, under each hierarchy's root
TASK=compose-check
CGROOT=/sys/fs/cgroup
HEALTH_TIMEOUT_S=${HEALTH_TIMEOUT_S:-600}
PROM=http://localhost:9090

say() { printf '[compose-check %s] %s\n' "$(date -u +%H:%M:%S)" "$*"; }
fail() { say "FAILED: $*"; exit 1; }

docker info >/dev/null 2>&1 || { say "no Docker engine reachable (docker info failed); nothing checked"; exit 3; }
if docker-compose version >/dev/null 2>&1; then COMPOSE_BIN=(docker-compose)
elif docker compose version >/dev/null 2>&1; then COMPOSE_BIN=(docker compose)
else say "neither docker-compose nor 'docker compose' found"; exit 3; fi
[ "$(id -u)" = 0 ] || fail "run as root: the check creates a cgroup on this host"
[ -d "$CGROOT/cpu" ] && [ -d "$CGROOT/cpuacct" ] || fail "expects cgroup v1 cpu and cpuacct hierarchies under $CGROOT"

# 1. The jar and the images.
if [ "${SKIP_PACKAGE:-0}" != 1 ]; then
  say "building cli/target/quotaflow.jar"
  ./mvnw -B -q ${MVN_OFFLINE:+-o} -DskipTests -pl cli -am package
fi
[ -f cli/target/quotaflow.jar ] || fail "no cli/target/quotaflow.jar"

if [ -z "${LOCAL:-}" ]; then
  if timeout 60 docker pull -q eclipse-temurin:17-jre >/dev/null 2>&1; then LOCAL=0; else LOCAL=1; fi
fi
FILES=(-f docker-compose.yml)
if [ "$LOCAL" = 1 ]; then
  say "public images cannot be pulled: local base images from Debian packages and docker-compose.local.yml"
  deploy/local-base-image.sh prometheus
  export QUOTAFLOW_BASE_IMAGE=quotaflow-local/jre:17
  FILES+=(-f docker-compose.local.yml)
fi
COMPOSE=("${COMPOSE_BIN[@]}" -p "$PROJECT" "${FILES[@]}")
export QUOTAFLOW_CGROUP_PARENT=/$PARENT
say "building the quotaflow image on ${QUOTAFLOW_BASE_IMAGE:-eclipse-temurin:17-jre}"
"${COMPOSE[@]}" build -q streams

# 2. A task group on the host with a busy process in it, made before the stack so the collector
#    samples it from its first period. Niced: on a small machine it should only take idle CPU.
BUSY=
cleanup() {
  set +e
  if [ "${KEEP:-0}" = 1 ]; then say "KEEP=1: left up; '${COMPOSE[*]} down -v' brings it down"; return; fi
  say "bringing the stack down"
  "${COMPOSE[@]}" down -v --remove-orphans >/dev/null 2>&1
  [ -n "$BUSY" ] && kill "$BUSY" 2>/dev/null && wait "$BUSY" 2>/dev/null
  for h in "$CGROOT"/*/; do
    [ -d "$h$PARENT/$TASK" ] && rmdir "$h$PARENT/$TASK"
    [ -d "$h$PARENT" ] && rmdir "$h$PARENT"
  done
  left=$(docker ps -aq --filter "label=com.docker.compose.project=$PROJECT" | wc -l)
  nets=$(docker network ls -q --filter "label=com.docker.compose.project=$PROJECT" | wc -l)
  vols=$(docker volume ls -q --filter "label=com.docker.compose.project=$PROJECT" | wc -l)
  groups=$(find "$CGROOT" -maxdepth 2 -name "$PARENT" 2>/dev/null | wc -l)
  say "left behind: $left containers, $nets networks, $vols volumes, $groups cgroup directories"
}
trap cleanup EXIT

for c in cpu cpuacct memory freezer; do
  [ -d "$CGROOT/$c" ] && mkdir -p "$CGROOT/$c/$PARENT/$TASK"
done
nice -n 19 sh -c 'while :; do :; done' &
BUSY=$!
for c in cpu cpuacct memory freezer; do
  [ -d "$CGROOT/$c/$PARENT/$TASK" ] && echo "$BUSY" > "$CGROOT/$c/$PARENT/$TASK/tasks"
done
SHARES_FILE=$CGROOT/cpu/$PARENT/$TASK/cpu.shares
say "task group $PARENT/$TASK with busy pid $BUSY; cpu.shares $(cat "$SHARES_FILE")"

# 3. Up, and the time until every container is healthy.
start=$(date +%s)
"${COMPOSE[@]}" up -d --scale streams="$STREAMS_REPLICAS"
expected=$((5 + STREAMS_REPLICAS))   # kafka, schema-registry, collector, enforcer, prometheus, streams xN
while :; do
  ids=$("${COMPOSE[@]}" ps -q)
  states=$(for id in $ids; do docker inspect -f '{{.Name}} {{if .State.Health}}{{.State.Health.Status}}{{else}}{{.State.Status}}{{end}}' "$id"; done)
  healthy=$(grep -c ' healthy$' <<<"$states" || true)
  [ "$healthy" -ge "$expected" ] && break
  if grep -qE ' (unhealthy|exited|dead)$' <<<"$states"; then
    echo "$states"; "${COMPOSE[@]}" logs --tail=30; fail "a service is unhealthy or exited"
  fi
  [ $(( $(date +%s) - start )) -lt "$HEALTH_TIMEOUT_S" ] || { echo "$states"; fail "not healthy after ${HEALTH_TIMEOUT_S}s"; }
  sleep 5
done
say "all $expected containers healthy in $(( $(date +%s) - start )) s"

# 4. The checks. Prometheus answers what every component exports; poll until true or time is up.
query() { curl -fsS "$PROM/api/v1/query" --data-urlencode "query=$1" | jq -r '.data.result[0].value[1] // "0"'; }
await() { # await DESCRIPTION SECONDS COMMAND...: polls COMMAND every 2 s
  local what=$1 limit=$2; shift 2; local t0; t0=$(date +%s)
  until "$@"; do
    [ $(( $(date +%s) - t0 )) -lt "$limit" ] || fail "$what (after ${limit}s)"
    sleep 2
  done
}
targets_up() {
  local up; up=$(curl -fsS "$PROM/api/v1/targets" | jq -r '[.data.activeTargets[] | select(.health=="up") | .labels.job] | group_by(.) | map("\(.[0])=\(length)") | join(" ")')
  [ "$up" = "collector=1 enforcer=1 prometheus=1 streams=$STREAMS_REPLICAS" ] && say "Prometheus targets up: $up"
}
await "Prometheus scrapes every component" 120 targets_up

# The node agents' name: the first label of the host's /etc/hostname (deploy/image/quotaflow).
NODE=$(cut -d. -f1 /etc/hostname)
say "node name: $NODE"
samples_flow() { local n; n=$(query 'sum(quotaflow_collector_samples_published_total)'); [ "${n%.*}" -gt 0 ] && say "samples published: $n"; }
await "samples flow" 120 samples_flow

before=$(cat "$SHARES_FILE")
say "setting the spec: quotaflow spec set $NODE/$TASK ncpus=0.5"
# The tools print the record written, then where; the last line is enough here.
"${COMPOSE[@]}" exec -T streams quotaflow cluster set enforcement=ON | tail -1
"${COMPOSE[@]}" exec -T streams quotaflow spec set "$NODE/$TASK" ncpus=0.5 pool=default | tail -1
decisions_made() { local n; n=$(query 'sum(quotaflow_streams_decisions_total)'); [ "${n%.*}" -gt 0 ] && say "decisions published: $n"; }
await "decisions are made" 120 decisions_made
shares_written() { local now; now=$(cat "$SHARES_FILE"); [ "$now" != "$before" ] && say "cpu.shares of $PARENT/$TASK on the host: $before -> $now (written by the enforcer container)"; }
await "the enforcer writes the host cgroup" 120 shares_written
applied() { local n; n=$(query 'sum(quotaflow_enforcer_results_total{status="APPLIED"})'); [ "${n%.*}" -gt 0 ] && say "enforcer results APPLIED: $n"; }
await "the enforcer reports APPLIED" 60 applied

if [ -n "${SCREENSHOTS:-}" ]; then
  mkdir -p "$SCREENSHOTS"
  # A graph needs a few scrapes of the rate; the targets page shows every target's last scrape.
  sleep 60
  shot() {
    local profile; profile=$(mktemp -d)
    chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
      --disable-component-update --disable-sync --user-data-dir="$profile" --virtual-time-budget=10000 \
      --screenshot="$1" --window-size=1400,900 "$2" >/dev/null 2>&1
    rm -rf "$profile"; say "screenshot $1"
  }
  # Debian's Prometheus serves only the classic UI, where the targets page is /classic/targets.
  targets=$PROM/targets
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$targets")" = 200 ] || targets=$PROM/classic/targets
  shot "$SCREENSHOTS/prometheus-targets.png" "$targets"
  shot "$SCREENSHOTS/prometheus-decisions-rate.png" \
    "$PROM/graph?g0.expr=sum%20by%20(instance)%20(rate(quotaflow_streams_decisions_total%5B1m%5D))&g0.tab=0&g0.range_input=10m"
fi
say "all checks passed"
