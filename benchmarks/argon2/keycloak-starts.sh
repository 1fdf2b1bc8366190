#!/usr/bin/env bash
# Keycloak starts one after another, without and with -XX:-TieredCompilation (JAVA_OPTS_APPEND): per start, the seconds
# until the master realm answers and the Keycloak JVM's CPU (utime+stime) per password grant of the bootstrap admin,
# over 100 grants after 100, as benchmarks/attack/run.sh measures a start.
#
#   benchmarks/argon2/keycloak-starts.sh          # STARTS=3 of each
#
# Keycloak 26.7.3 unpacked into benchmarks/argon2/target/ (dev-file database, LOCAL caches, this project's JAR),
# on free ports of 127.0.0.1. Writes to $OUT (default benchmarks/results/argon2-keycloak-starts-<date>.txt).
set -euo pipefail
# shellcheck source=../load/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../load/common.sh"
TARGET="$ROOT/benchmarks/argon2/target"
KC_HOME="$TARGET/keycloak-$KEYCLOAK_VERSION"
STARTS="${STARTS:-3}"
OUT="${OUT:-$ROOT/benchmarks/results/argon2-keycloak-starts-$(date -u +%F).txt}"
KC_PID=""
trap 'stop_pid "$KC_PID" Keycloak > /dev/null' EXIT
prepare_jar_and_dist
rm -f "$KC_HOME"/providers/keycloak-abuse-gate-*.jar
cp "$ROOT"/providers/keycloak-abuse-gate-*.jar "$KC_HOME/providers/"
"$KC_HOME/bin/kc.sh" build --cache=local --db=dev-file > "$TARGET/keycloak-build.log" 2>&1

{
  echo "# benchmarks/argon2/keycloak-starts.sh, $(date -u +%FT%TZ), git $(git -C "$ROOT" rev-parse --short HEAD)"
  echo "# Keycloak $KEYCLOAK_VERSION, $(java -version 2>&1 | head -1), $(nproc) cores; STARTS=$STARTS"
  for flags in "" "-XX:-TieredCompilation"; do
    for n in $(seq 1 "$STARTS"); do
      rm -rf "$KC_HOME/data"
      http=$(free_port); mgmt=$(free_port "$http"); https=$(free_port "$http" "$mgmt")
      JAVA_OPTS_APPEND="$flags" KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=admin \
        "$KC_HOME/bin/kc.sh" start --optimized --http-enabled=true --http-host=127.0.0.1 --http-port="$http" \
        --https-port="$https" --http-management-port="$mgmt" --hostname-strict=false > "$TARGET/keycloak.log" 2>&1 &
      KC_PID=$!
      t0=$(date +%s)
      wait_for_realm "$KC_PID" "$http" "$TARGET/keycloak.log" master >&2
      up=$(( $(date +%s) - t0 ))
      echo "JAVA_OPTS_APPEND=\"$flags\" start $n: up in $up s, $(admin_login_cost "$http" "$(jvm_pid "$KC_PID")") ms CPU per login of the bootstrap admin"
      stop_pid "$KC_PID" Keycloak > /dev/null; KC_PID=""
    done
  done
} | tee "$OUT"
