#!/usr/bin/env bash
# Load benchmark: the abuse gate vs stock Keycloak 26.7.3 on one server, in one run.
#
#   benchmarks/load/run.sh                 build, unpack Keycloak, start it, drive load, print the table
#   ROUNDS=5 benchmarks/load/run.sh        rounds per measurement (default 5)
#   CONCURRENCY=8 ...                      load driver workers for the throughput phases (default 8)
#   OUT=dir ...                            where to write the raw output (default benchmarks/load/target/results)
#   DRIVER_OPTS="-DblockN=600 -DverifyN=40 -DlatencyN=60"   attempts per round (these are the defaults)
#   JFR=1 ...                              record the server with JFR (settings=default) during the load
#
# Everything goes to 127.0.0.1 on free ports (never 8080/9000); X-Forwarded-For values are from the
# documentation ranges. The Keycloak process started here is stopped on exit (by its own pid).
set -euo pipefail

KEYCLOAK_VERSION=26.7.3
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/benchmarks/load"
TARGET="$HERE/target"
KC_HOME="$TARGET/keycloak-$KEYCLOAK_VERSION"
OUT="${OUT:-$TARGET/results}"
ROUNDS="${ROUNDS:-5}"
CONCURRENCY="${CONCURRENCY:-8}"
mkdir -p "$TARGET" "$OUT"
cd "$ROOT"

echo "==> Building the provider JAR"
./mvnw -B -q -DskipTests package -pl authenticator -am

if [ ! -x "$KC_HOME/bin/kc.sh" ]; then
  echo "==> Unpacking org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip into $TARGET"
  ./mvnw -B -q -N dependency:unpack \
    -Dartifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" \
    -DoutputDirectory="$TARGET" -Dmdep.overWriteReleases=true
fi

echo "==> Installing the provider and the bench realm (fresh database)"
rm -f "$KC_HOME"/providers/keycloak-abuse-gate-*.jar
cp "$ROOT"/providers/keycloak-abuse-gate-*.jar "$KC_HOME/providers/"
rm -rf "$KC_HOME/data"
mkdir -p "$KC_HOME/data/import"
cp "$HERE/realm-bench.json" "$KC_HOME/data/import/realm-bench.json"

echo "==> Compiling the load driver"
rm -rf "$TARGET/driver" && mkdir -p "$TARGET/driver"
javac -d "$TARGET/driver" "$HERE"/src/*.java

free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$(( 20000 + RANDOM % 30000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  echo "no free port" >&2; exit 1
}
HTTP_PORT=$(free_port)
MGMT_PORT=$(free_port)
while [ "$MGMT_PORT" = "$HTTP_PORT" ]; do MGMT_PORT=$(free_port); done

KC_PID=""
cleanup() {
  if [ -n "$KC_PID" ] && kill -0 "$KC_PID" 2>/dev/null; then
    echo "==> Stopping Keycloak (pid $KC_PID)"
    kill -TERM "$KC_PID" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$KC_PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$KC_PID" 2>/dev/null || true
  fi
}
trap cleanup EXIT INT TERM

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "git: $(git -C "$ROOT" rev-parse --short HEAD) ($(git -C "$ROOT" rev-parse --abbrev-ref HEAD))"
  echo "nproc: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  echo "memory: $(free -m | awk '/Mem:/ {print $2 " MiB total, " $7 " MiB available"}')"
  echo "java: $(java -version 2>&1 | tr '\n' ' ')"
  echo "uptime before start: $(uptime)"
} | tee "$OUT/machine.txt"

# Production mode, not start-dev: start-dev turns theme and template caching off, so every login page
# (and every 429 page) would re-read and re-parse its FreeMarker templates, which is not what a real
# server does. `build` once with a LOCAL cache (as under start-dev; no cluster discovery) and the
# bundled dev-file H2 database, then `start --optimized` with plain HTTP on loopback.
echo "==> kc.sh build (--cache=local, dev-file database)"
"$KC_HOME/bin/kc.sh" build --cache=local --db=dev-file > "$OUT/keycloak-build.log" 2>&1
HTTPS_PORT=$(free_port)
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
for i in $(seq 1 600); do
  if ! kill -0 "$KC_SCRIPT_PID" 2>/dev/null; then echo; echo "Keycloak exited; see $OUT/keycloak.log" >&2; tail -30 "$OUT/keycloak.log" >&2; exit 1; fi
  if curl -sf -o /dev/null "http://127.0.0.1:$HTTP_PORT/realms/bench/.well-known/openid-configuration"; then break; fi
  sleep 1; [ $((i % 10)) = 0 ] && echo -n "."
done
echo
# kc.sh runs java as a child (and execs it on re-augmentation): find the server JVM by kc.sh's pid.
JAVA_PID=""
if [ "$(readlink "/proc/$KC_SCRIPT_PID/exe" 2>/dev/null | xargs -r basename)" = "java" ]; then
  JAVA_PID=$KC_SCRIPT_PID
else
  JAVA_PID=$(ps -o pid= --ppid "$KC_SCRIPT_PID" | head -1 | tr -d ' ')
fi
[ -n "$JAVA_PID" ] || { echo "cannot find the Keycloak JVM" >&2; exit 1; }
echo "    Keycloak JVM pid $JAVA_PID ($(readlink /proc/$JAVA_PID/exe))"
echo "uptime before load: $(uptime)" | tee -a "$OUT/machine.txt"
if [ "${JFR:-0}" = "1" ]; then
  # JFR with the low-overhead "default" settings, from now (server ready) until the load ends.
  jcmd "$JAVA_PID" JFR.start name=bench settings=default filename="$OUT/server.jfr" > /dev/null
fi

java -DclkTck="$(getconf CLK_TCK)" ${DRIVER_OPTS:-} -cp "$TARGET/driver" LoadDriver "http://127.0.0.1:$HTTP_PORT" "$JAVA_PID" "$ROUNDS" "$CONCURRENCY" \
  | tee "$OUT/load.txt"

echo "uptime after load: $(uptime)" | tee -a "$OUT/machine.txt"
if [ "${JFR:-0}" = "1" ]; then
  jcmd "$JAVA_PID" JFR.stop name=bench > /dev/null && echo "JFR recording: $OUT/server.jfr"
fi
