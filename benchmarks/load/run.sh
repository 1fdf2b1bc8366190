#!/usr/bin/env bash
# Load benchmark: the abuse gate vs stock Keycloak 26.7.3 on one server, in one run.
#
#   benchmarks/load/run.sh                 build, unpack Keycloak, start it, drive load, print the table
#   ROUNDS=5 benchmarks/load/run.sh        rounds per measurement (default 5)
#   CONCURRENCY=8 ...                      load driver workers for the throughput phases (default 8)
#   OUT=dir ...                            where to write the raw output (default benchmarks/load/target/results)
#   DRIVER_OPTS="-DblockN=600 -DverifyN=40 -DlatencyN=60"   attempts per round (these are the defaults);
#                                          also -Dwarmup=1 (warm-up rounds), -DseqN=0 (sequential blocking-flow latency)
#   JFR=1 ...                              record the server with JFR (settings=default) during the load
#   STORE_OPTS="--spi-abuse-gate-store--infinispan--max-entries=2000 --spi-abuse-gate-store--infinispan--max-protected-entries=500"
#                                          extra server options (e.g. small store bounds)
#   FILL=6000 FILL_VERIFIED=1500 ...       the rounds twice: on the unfilled store, then after a flood of FILL blank
#                                          passwords and FILL_VERIFIED wrong ones for unknown usernames (fresh
#                                          addresses and usernames), with the filled/unfilled ratios
#   QUIET_FILE=/path QUIET_NAME=who ...     once the server is ready, wait until that file is absent, create it for the
#                                          measurement and remove it at the end (a machine shared by agreement)
#
# Everything goes to 127.0.0.1 on free ports (never 8080/9000); X-Forwarded-For values are from the
# documentation ranges. The Keycloak process started here is stopped on exit (by its own pid).
# A cluster of Keycloak nodes: run-cluster.sh (shares common.sh and the driver with this script).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
OUT="${OUT:-$TARGET/results}"
mkdir -p "$TARGET" "$OUT"
cd "$ROOT"

prepare_jar_dist_and_driver

echo "==> Installing the provider and the bench realm (fresh database)"
install_provider_and_realm "$KC_HOME"
HTTP_PORT=$(free_port)
MGMT_PORT=$(free_port "$HTTP_PORT")

KC_PID=""
QUIET_HELD=""
cleanup() {
  stop_pid "$KC_PID" Keycloak
  if [ -n "$QUIET_HELD" ]; then rm -f "$QUIET_HELD"; fi
}
trap cleanup EXIT
trap 'exit 143' INT TERM

machine_info | tee "$OUT/machine.txt"

# Production mode, not start-dev: start-dev turns theme and template caching off, so every login page
# (and every 429 page) would re-read and re-parse its FreeMarker templates, which is not what a real
# server does. `build` once with a LOCAL cache (as under start-dev; no cluster discovery) and the
# bundled dev-file H2 database, then `start --optimized` with plain HTTP on loopback.
echo "==> kc.sh build (--cache=local, dev-file database)"
"$KC_HOME/bin/kc.sh" build --cache=local --db=dev-file > "$OUT/keycloak-build.log" 2>&1
HTTPS_PORT=$(free_port "$HTTP_PORT" "$MGMT_PORT")
echo "==> Starting Keycloak $KEYCLOAK_VERSION (start --optimized) on 127.0.0.1:$HTTP_PORT (management $MGMT_PORT)"
export KC_BOOTSTRAP_ADMIN_USERNAME=admin
export KC_BOOTSTRAP_ADMIN_PASSWORD=admin
"$KC_HOME/bin/kc.sh" start --optimized --import-realm \
  --http-enabled=true --http-host=127.0.0.1 --http-port="$HTTP_PORT" --https-port="$HTTPS_PORT" \
  --http-management-port="$MGMT_PORT" --hostname-strict=false --proxy-headers=xforwarded ${STORE_OPTS:-} \
  > "$OUT/keycloak.log" 2>&1 &
KC_SCRIPT_PID=$!
KC_PID=$KC_SCRIPT_PID

echo -n "    waiting for the bench realm"
wait_for_realm "$KC_SCRIPT_PID" "$HTTP_PORT" "$OUT/keycloak.log"
echo
JAVA_PID=$(jvm_pid "$KC_SCRIPT_PID")
echo "    Keycloak JVM pid $JAVA_PID ($(readlink /proc/$JAVA_PID/exe))"
if [ -n "${QUIET_FILE:-}" ]; then
  echo -n "    waiting for $QUIET_FILE to be free"
  until ( set -o noclobber; echo "${QUIET_NAME:-load benchmark (pid $$)} until $(date -u -d '+10 min' +%H:%M) UTC" > "$QUIET_FILE" ) 2>/dev/null; do
    sleep 30; echo -n "."
  done
  QUIET_HELD="$QUIET_FILE"
  echo " held"
fi
[ -n "${STORE_OPTS:-}" ] && echo "server options: $STORE_OPTS" | tee -a "$OUT/machine.txt"
echo "uptime before load: $(uptime)" | tee -a "$OUT/machine.txt"
if [ "${JFR:-0}" = "1" ]; then
  # JFR with the low-overhead "default" settings, from now (server ready) until the load ends.
  jcmd "$JAVA_PID" JFR.start name=bench settings=default filename="$OUT/server.jfr" > /dev/null
fi

if [ -n "${FILL:-}" ]; then
  DRIVER_OPTS="${DRIVER_OPTS:-} -Dfill=$FILL -DfillVerified=${FILL_VERIFIED:-0}"
fi
run_driver "http://127.0.0.1:$HTTP_PORT" "$JAVA_PID" "$OUT/load.txt"

echo "uptime after load: $(uptime)" | tee -a "$OUT/machine.txt"
if [ -n "${QUIET_HELD:-}" ]; then rm -f "$QUIET_HELD"; QUIET_HELD=""; fi
if [ -n "${FILL:-}" ]; then
  echo "server log, WARN 'counter store at its bound' (one per realm per minute at most): $(grep -c 'counter store at its bound' "$OUT/keycloak.log" || true)" \
    | tee -a "$OUT/machine.txt"
fi
if [ "${JFR:-0}" = "1" ]; then
  jcmd "$JAVA_PID" JFR.stop name=bench > /dev/null && echo "JFR recording: $OUT/server.jfr"
fi
