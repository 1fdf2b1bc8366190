#!/usr/bin/env bash
# Keycloak's default password hash (Argon2id, Bouncy Castle), timed in fresh JVMs one after another: what one
# Keycloak start draws. Each JVM hashes WARM passwords, then prints its CPU per hash over N more.
#
#   benchmarks/argon2/run.sh                            # DRAWS=12 JVMs, WARM=10, N=20
#   FLAGS="-XX:-TieredCompilation" benchmarks/argon2/run.sh   # the same with JVM flags
#
# Uses the Bouncy Castle jar of the Keycloak distribution that benchmarks/attack/run.sh unpacks (it unpacks it
# here when missing). Writes to $OUT (default benchmarks/results/argon2-draws-<date>.txt); see
# benchmarks/attack/README.md#the-hash-a-keycloak-start-draws.
set -euo pipefail
# shellcheck source=../load/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../load/common.sh"
TARGET="$ROOT/benchmarks/attack/target"
KC_HOME="$TARGET/keycloak-$KEYCLOAK_VERSION"
DRAWS="${DRAWS:-12}"
WARM="${WARM:-10}"
N="${N:-20}"
FLAGS="${FLAGS:-}"
OUT="${OUT:-$ROOT/benchmarks/results/argon2-draws-$(date -u +%F).txt}"
[ -x "$KC_HOME/bin/kc.sh" ] || prepare_jar_and_dist
BC="$(ls "$KC_HOME"/lib/lib/main/org.bouncycastle.bcprov-*.jar | head -1)"
CLASSES="$ROOT/benchmarks/argon2/target/classes"
rm -rf "$CLASSES" && mkdir -p "$CLASSES"
javac -cp "$BC" -d "$CLASSES" "$ROOT/benchmarks/argon2/Argon2Draw.java"
{
  echo "# benchmarks/argon2/run.sh, $(date -u +%FT%TZ), git $(git -C "$ROOT" rev-parse --short HEAD)"
  echo "# $(java -version 2>&1 | head -1); $(basename "$BC"); $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "# DRAWS=$DRAWS WARM=$WARM N=$N FLAGS=\"$FLAGS\"; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
  for i in $(seq 1 "$DRAWS"); do
    # shellcheck disable=SC2086
    echo "JVM $i: $(java $FLAGS -cp "$CLASSES:$BC" Argon2Draw "$WARM" "$N")"
  done
} | tee "$OUT"
