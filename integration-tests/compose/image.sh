#!/usr/bin/env bash
# Smoke test of README's Install step for a container image: the Dockerfile README gives (taken from README
# word for word, the ```dockerfile block), built on the image of its FROM with the JAR in providers/, then
# started with `start --optimized`: Keycloak comes up without rebuilding, with the gate's providers loaded.
# The container publishes on a random port of 127.0.0.1; build and container are removed afterwards.
source "$(dirname "$0")/common.sh"
TAG="abusegate-image-$SMOKE_ID:test"
NAME="abusegate-image-$SMOKE_ID"
ctx="$(mktemp -d)"
cleanup() {
  command docker rm -f "$NAME" >/dev/null 2>&1 || true
  command docker image rm "$TAG" >/dev/null 2>&1 || true
  rm -rf "$ctx"
}
trap cleanup EXIT

awk '/^ *```dockerfile$/ {on = 1; next} on && /^ *```$/ {exit} on {sub(/^ +/, ""); print}' README.md >"$ctx/Dockerfile"
grep -q '^FROM ' "$ctx/Dockerfile" || fail "no \`\`\`dockerfile block in README.md"
say "README's Dockerfile:"; sed 's/^/    /' "$ctx/Dockerfile"
base="$(awk '$1 == "FROM" {print $2; exit}' "$ctx/Dockerfile")"
command docker image inspect "$base" >/dev/null 2>&1 || fail "image $base is not on the engine, and CI may not pull"
mkdir -p "$ctx/providers"
cp providers/keycloak-abuse-gate-*.jar "$ctx/providers/" || fail "no JAR in providers/ (./mvnw -B -DskipTests package)"

say "docker build (log $SMOKE_LOG_DIR/image-build.log)"
command docker build -t "$TAG" "$ctx" >"$SMOKE_LOG_DIR/image-build.log" 2>&1 || fail "docker build failed, see $SMOKE_LOG_DIR/image-build.log"
command docker run -d --name "$NAME" -p 127.0.0.1::8080 -e KC_BOOTSTRAP_ADMIN_USERNAME=admin -e KC_BOOTSTRAP_ADMIN_PASSWORD=admin \
  "$TAG" start --optimized --http-enabled=true --hostname-strict=false >/dev/null
port="$(command docker port "$NAME" 8080/tcp | sed 's/.*://')"
wait_for "http://127.0.0.1:$port/realms/master" 300
log="$(command docker logs "$NAME" 2>&1)"
! grep -q 'Updating the configuration and installing your custom providers' <<<"$log" \
  || fail "start --optimized rebuilt the server: the image's build did not take the JAR"
for id in abuse-gate-username-password-form abuse-gate-direct-grant; do
  token="$(admin_token "http://127.0.0.1:$port")"
  curl -sf -H "Authorization: Bearer $token" "http://127.0.0.1:$port/admin/serverinfo" \
    | jq -e --arg id "$id" '.providers.authenticator.providers | has($id)' >/dev/null \
    || fail "provider $id is not in the server info"
done
say "the image starts optimized with the gate's authenticators (server info on 127.0.0.1:$port)"
say "PASSED: README's Dockerfile"
