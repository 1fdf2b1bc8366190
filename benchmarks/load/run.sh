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
cleanup() { stop_pid "$KC_PID" Keycloak; }
trap cleanup EXIT INT TERM

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
  --http-management-port="$MGMT_PORT" --hostname-strict=false --proxy-headers=xforwarded \
  > "$OUT/keycloak.log" 2>&1 &
KC_SCRIPT_PID=$!
KC_PID=$KC_SCRIPT_PID

echo -n "    waiting for the bench realm"
wait_for_realm "$KC_SCRIPT_PID" "$HTTP_PORT" "$OUT/keycloak.log"
echo
JAVA_PID=$(jvm_pid "$KC_SCRIPT_PID")
echo "    Keycloak JVM pid $JAVA_PID ($(readlink /proc/$JAVA_PID/exe))"
echo "uptime before load: $(uptime)" | tee -a "$OUT/machine.txt"
if [ "${JFR:-0}" = "1" ]; then
  # JFR with the low-overhead "default" settings, from now (server ready) until the load ends.
  jcmd "$JAVA_PID" JFR.start name=bench settings=default filename="$OUT/server.jfr" > /dev/null
fi

run_driver "http://127.0.0.1:$HTTP_PORT" "$JAVA_PID" "$OUT/load.txt"

echo "uptime after load: $(uptime)" | tee -a "$OUT/machine.txt"
if [ "${JFR:-0}" = "1" ]; then
  jcmd "$JAVA_PID" JFR.stop name=bench > /dev/null && echo "JFR recording: $OUT/server.jfr"
fi
