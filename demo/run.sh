#!/usr/bin/env bash
# Runs the abuse-gate demo on the official Keycloak distribution. Needs only JDK 17 or later.
#
#   demo/run.sh                                  build, fetch Keycloak, start on http://localhost:8080
#   demo/run.sh --proxy-headers=xforwarded       extra arguments go to `kc.sh start-dev`
#   DEMO_FRESH=1 demo/run.sh                     forget the demo database (re-imports the realm)
#   DEMO_NO_START=1 demo/run.sh                  prepare everything, do not start
#
# Safe to re-run: the JAR is rebuilt, Keycloak is downloaded and unpacked only once (into
# demo/target/, ignored by git), and an existing "demo" realm is kept (Keycloak skips the import).
set -euo pipefail

KEYCLOAK_VERSION=26.7.3
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TARGET="$ROOT/demo/target"
KC_HOME="$TARGET/keycloak-$KEYCLOAK_VERSION"

cd "$ROOT"

echo "==> Building the provider JAR"
./mvnw -B -q -DskipTests package -pl authenticator -am

if [ ! -x "$KC_HOME/bin/kc.sh" ]; then
  echo "==> Fetching Keycloak $KEYCLOAK_VERSION (org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip)"
  mkdir -p "$TARGET"
  ./mvnw -B -q -N dependency:unpack \
    -Dartifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" \
    -DoutputDirectory="$TARGET" -Dmdep.overWriteReleases=true
fi

echo "==> Installing the provider and the demo realm into $KC_HOME"
rm -f "$KC_HOME"/providers/keycloak-abuse-gate-*.jar
cp "$ROOT"/providers/keycloak-abuse-gate-*.jar "$KC_HOME/providers/"
if [ "${DEMO_FRESH:-0}" = "1" ]; then
  rm -rf "$KC_HOME/data/h2"
fi
mkdir -p "$KC_HOME/data/import"
cp "$ROOT/demo/realm-demo.json" "$KC_HOME/data/import/realm-demo.json"

if [ "${DEMO_NO_START:-0}" = "1" ]; then
  echo "==> Ready (DEMO_NO_START=1): $KC_HOME"
  exit 0
fi

if (exec 3<>/dev/tcp/127.0.0.1/8080) 2>/dev/null; then
  echo "Port 8080 is already in use; stop whatever listens there and run demo/run.sh again." >&2
  exit 1
fi

echo "==> Starting Keycloak: http://localhost:8080 (admin console: admin / admin)"
echo "    Demo login: http://localhost:8080/realms/demo/account (alice, bob, carol / Passw0rd!)"
export KC_BOOTSTRAP_ADMIN_USERNAME=admin
export KC_BOOTSTRAP_ADMIN_PASSWORD=admin
exec "$KC_HOME/bin/kc.sh" start-dev --import-realm --http-port=8080 \
  --metrics-enabled=true --health-enabled=true "$@"
