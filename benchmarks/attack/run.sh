#!/usr/bin/env bash
# Availability under attack: real users' logins while open-loop attacks run, stock Keycloak 26.7.3 against the
# abuse gate, on one server, in one run. What it measures and the knobs: benchmarks/attack/README.md.
#
#   benchmarks/attack/run.sh                      build, unpack Keycloak, start it, run every phase, write the
#                                                 table (benchmarks/results/attack-<UTC date>.md) and the plot
#                                                 (benchmarks/results/attack-availability.png)
#   RATES="10 50 200 800" PHASE_SECONDS=12 ...    offered attack rates (requests/s) and seconds per phase
#   QUIET=1 ...                                   take the machine's quiet window (/work/QUIET) for the measured
#                                                 phases only (after the start and the warm-up), at most 10 minutes
#
# Everything listens on 127.0.0.1 on free ports (never 8080/9000); client addresses reach Keycloak through
# X-Forwarded-For from 127.0.0.1, the only trusted proxy. The Keycloak started here is stopped on exit (by its pid).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/../load/common.sh"
HERE="$ROOT/benchmarks/attack"
TARGET="$HERE/target"
KC_HOME="$TARGET/keycloak-$KEYCLOAK_VERSION"
USERS="${USERS:-400}"
WORK="${WORK:-$TARGET/run}"
export RESULTS="${RESULTS:-$ROOT/benchmarks/results/attack-$(date -u +%Y-%m-%d).md}"
export PLOT="${PLOT:-$ROOT/benchmarks/results/attack-availability.png}"
export PROFILE_OUT="${PROFILE_OUT:-$ROOT/benchmarks/results/attack-profile-$(date -u +%Y-%m-%d).txt}"
export GIT_COMMIT="$(git -C "$ROOT" rev-parse --short HEAD)"
# The command as run, with the knobs that were set (for the results file).
knobs=""
for k in REALMS RATES SHAPES ENDPOINTS PHASE_SECONDS WARMUP_SECONDS REAL_INTERVAL_MS USERS MAX_INFLIGHT DRAIN_SECONDS SATURATED_FACTOR \
  REAL_TIMEOUT_SECONDS QUIET QUIET_MINUTES PROFILE; do
  [ -n "${!k:-}" ] && knobs="$knobs$k=\"${!k}\" "
done
export COMMAND="${knobs}benchmarks/attack/run.sh"
export USERS
QUIET_FILE="${QUIET_FILE:-/work/QUIET}"

wait_for_quiet_to_end() {
  # Another helper's quiet window: start nothing until it is over.
  while [ -e "$QUIET_FILE" ] && ! grep -q '^attack ' "$QUIET_FILE" 2>/dev/null; do
    echo "    $(cat "$QUIET_FILE" 2>/dev/null) holds the quiet window; waiting"; sleep 30
  done
}

KC_PID=""
cleanup() {
  stop_pid "$KC_PID" Keycloak
  # Our quiet window, if the driver died without removing it.
  if [ -e "$QUIET_FILE" ] && grep -q '^attack ' "$QUIET_FILE" 2>/dev/null && [ "${QUIET:-0}" = "1" ]; then rm -f "$QUIET_FILE"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_for_quiet_to_end
rm -rf "$WORK" && mkdir -p "$WORK" "$TARGET"
cd "$ROOT"
machine_info | tee "$WORK/machine.txt"

prepare_jar_and_dist
echo "==> Compiling the benchmark (benchmarks/src/main/java/dev/abusegate/benchmarks/attack)"
rm -rf "$TARGET/classes" && mkdir -p "$TARGET/classes"
javac -d "$TARGET/classes" "$ROOT"/benchmarks/src/main/java/dev/abusegate/benchmarks/attack/*.java

echo "==> Installing the provider and the realms stock, gated and shielded ($USERS users each; fresh database)"
rm -f "$KC_HOME"/providers/keycloak-abuse-gate-*.jar
cp "$ROOT"/providers/keycloak-abuse-gate-*.jar "$KC_HOME/providers/"
rm -rf "$KC_HOME/data" && mkdir -p "$KC_HOME/data/import"
java -cp "$TARGET/classes" dev.abusegate.benchmarks.attack.Realms "$KC_HOME/data/import" "$USERS"

HTTP_PORT=$(free_port)
MGMT_PORT=$(free_port "$HTTP_PORT")
HTTPS_PORT=$(free_port "$HTTP_PORT" "$MGMT_PORT")
wait_for_quiet_to_end
# Production mode (theme and template caches on), LOCAL caches and the dev-file H2 database, as benchmarks/load.
echo "==> kc.sh build (--cache=local, dev-file database)"
"$KC_HOME/bin/kc.sh" build --cache=local --db=dev-file > "$WORK/keycloak-build.log" 2>&1
echo "==> Starting Keycloak $KEYCLOAK_VERSION on 127.0.0.1:$HTTP_PORT (log: $WORK/keycloak.log)"
KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=admin \
  "$KC_HOME/bin/kc.sh" start --optimized --import-realm \
  --http-enabled=true --http-host=127.0.0.1 --http-port="$HTTP_PORT" --https-port="$HTTPS_PORT" \
  --http-management-port="$MGMT_PORT" --hostname-strict=false \
  --proxy-headers=xforwarded --proxy-trusted-addresses=127.0.0.1 \
  > "$WORK/keycloak.log" 2>&1 &
KC_PID=$!
echo -n "    waiting for the realms"
for i in $(seq 1 600); do
  kill -0 "$KC_PID" 2>/dev/null || { echo; echo "Keycloak exited; see $WORK/keycloak.log" >&2; tail -30 "$WORK/keycloak.log" >&2; exit 1; }
  if curl -sf -o /dev/null "http://127.0.0.1:$HTTP_PORT/realms/gated/.well-known/openid-configuration" \
    && curl -sf -o /dev/null "http://127.0.0.1:$HTTP_PORT/realms/stock/.well-known/openid-configuration" \
    && curl -sf -o /dev/null "http://127.0.0.1:$HTTP_PORT/realms/shielded/.well-known/openid-configuration"; then break; fi
  sleep 1; [ $((i % 10)) = 0 ] && echo -n "."
done
echo
JAVA_PID=$(jvm_pid "$KC_PID")
echo "    Keycloak JVM pid $JAVA_PID"

# The driver (real users, events, CPU, table, plot) runs in this JVM; it starts the attack client in a JVM of its own.
java -DclkTck="$(getconf CLK_TCK)" -Dwork="$WORK" -DkcPid="$JAVA_PID" -Dbase="http://127.0.0.1:$HTTP_PORT" \
  -DquietFile="$QUIET_FILE" -cp "$TARGET/classes" dev.abusegate.benchmarks.attack.AttackRun 2>&1 | tee "$WORK/driver.txt"
