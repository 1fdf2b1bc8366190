#!/usr/bin/env bash
# Smoke test of docker-compose.yml, as docs/demo.md tells a user to run it ("With Docker"), checked from the
# outside on 127.0.0.1:8080 and :9000:
#   1. `./mvnw -B -DskipTests package`, `docker compose up`: the demo realm answers; the captcha band walk
#      answers as documented; X-Forwarded-For is ignored (attempts count under the address Docker's port
#      proxy connects from); the gate's counters are on /metrics; `docker compose down` leaves nothing.
#   2. `KC_PROXY_HEADERS=xforwarded docker compose up`: the captcha band turned off (the docs do it in the
#      admin console, this test through the admin API), then each layer's walk answers as documented,
#      the 120 s lock included; the addresses the events name are the X-Forwarded-For ones; down again.
# Every command quoted from docs/demo.md is checked to be there word for word (doc_step). Needs Docker with
# the images on the engine, Compose v1 or v2, curl, jq, ss; ports 8080 and 9000 free.
# About 8 minutes on a 2-core machine (13 under heavy load): two Keycloak starts and the 120 s lock.
source "$(dirname "$0")/common.sh"
DOC=docs/demo.md
SMOKE_PROJECT="abuse-gate-demo-$SMOKE_ID"   # `docker compose` without -p: see common.sh
PORTS=(8080 9000)
UP_PID=""

cleanup() {
  local rc=$?
  if [ -n "$(command docker ps -aq --filter "label=com.docker.compose.project=$SMOKE_PROJECT")" ]; then
    [ $rc = 0 ] || docker compose logs --no-color --tail=80 >"$SMOKE_LOG_DIR/demo-failure.log" 2>&1 || true
    docker compose down -v >/dev/null 2>&1 || true
    [ $rc = 0 ] || echo "[compose-smoke] container log tail: $SMOKE_LOG_DIR/demo-failure.log" >&2
  fi
  [ -z "$UP_PID" ] || wait "$UP_PID" 2>/dev/null || true
}
trap cleanup EXIT

# `docker compose up` in the foreground, as the docs say: here in the background, output to a log file.
compose_up_foreground() {  # LOG <<'CMD'
  local log=$1 cmd
  cmd="$(cat)"
  grep -qF -- "$cmd" "$ROOT/$DOC" || fail "not in $DOC word for word: $cmd"
  say "\$ $cmd   (in the background, log $log)"
  (cd "$ROOT" && eval "$cmd") >"$log" 2>&1 &
  UP_PID=$!
  wait_for http://127.0.0.1:9000/health/ready 420
  wait_for http://127.0.0.1:8080/realms/demo 60
  say "Keycloak ready: the demo realm answers on 127.0.0.1:8080"
}

compose_down() {
  doc_run "$DOC" <<'CMD'
docker compose down
CMD
  wait "$UP_PID" 2>/dev/null || true   # the foreground `up` ends when its containers are gone
  UP_PID=""
  require_project_gone "$SMOKE_PROJECT"
  require_ports_closed "${PORTS[@]}"
  say "down: no container, network or volume of $SMOKE_PROJECT left; ports ${PORTS[*]} closed"
}

# The address Docker's port proxy connects from: the project network's gateway.
gateway() { command docker network inspect "${SMOKE_PROJECT}_default" --format '{{(index .IPAM.Config 0).Gateway}}'; }

require_no_project "$SMOKE_PROJECT"
require_free_ports "${PORTS[@]}"

say "== docker-compose.yml, as docs/demo.md 'With Docker' gives it"
say "\$ ./mvnw -B -DskipTests package   (log $SMOKE_LOG_DIR/package.log)"
grep -qF -- './mvnw -B -DskipTests package' "$ROOT/$DOC" || fail "the build command is not in $DOC"
(cd "$ROOT" && ./mvnw -B -DskipTests package) >"$SMOKE_LOG_DIR/package.log" 2>&1 || fail "build failed, see $SMOKE_LOG_DIR/package.log"
ls "$ROOT"/providers/keycloak-abuse-gate-*.jar >/dev/null || fail "no JAR in providers/"
require_images docker-compose.yml

compose_up_foreground "$SMOKE_LOG_DIR/demo-up.log" <<'CMD'
docker compose up
CMD

# "Captcha band first": layer 2's band (3 of 6) from the 4th attempt
doc_step "$DOC" "$(rep 3 '302 logged-in'; echo '429 captcha_required')" <<'CMD'
for i in 1 2 3 4; do demo/attempt.sh alice 'Passw0rd!' 192.0.2.80; done
CMD
# "Which address counts": without proxy headers, the X-Forwarded-For address is ignored; the attempt counts
# under the address that connected (here Docker's port proxy, from the network's gateway)
gw="$(gateway)"
event="$(login_errors http://127.0.0.1:8080 1)"
[ "$event" = "{\"ipAddress\":\"$gw\",\"error\":\"abuse_gate_captcha_required\",\"layer\":\"per_ip_account\"}" ] \
  || fail "expected the captcha answer's event under $gw (not 192.0.2.80): $event"
say "X-Forwarded-For ignored: the event names $gw, the address Docker's port proxy connects from"
doc_step "$DOC" "$(cat <<'OUT'
# TYPE abuse_gate_decisions counter
# HELP abuse_gate_decisions Abuse gate answers, by outcome and deciding layer
abuse_gate_decisions_total{layer="per_ip_account",outcome="captcha_required",realm="demo"} 1.0
abuse_gate_decisions_total{layer="none",outcome="allow",realm="demo"} 3.0
OUT
)" <<'CMD'
curl -s localhost:9000/metrics | grep abuse_gate_decisions
CMD
compose_down

say "== KC_PROXY_HEADERS=xforwarded: the walks of each layer"
require_free_ports "${PORTS[@]}"
compose_up_foreground "$SMOKE_LOG_DIR/demo-up-xforwarded.log" <<'CMD'
KC_PROXY_HEADERS=xforwarded docker compose up
CMD
captcha_band http://127.0.0.1:8080 false

say "-- layer 1, per address (10 per 300 s)"
doc_step "$DOC" "$(rep 10 '302 logged-in')" <<'CMD'
for u in alice alice alice alice bob bob bob carol carol carol; do demo/attempt.sh $u 'Passw0rd!' 198.51.100.1; done
CMD
doc_step "$DOC" "429 blocked" <<'CMD'
demo/attempt.sh carol 'Passw0rd!' 198.51.100.1
CMD
doc_step "$DOC" "302 logged-in" <<'CMD'
demo/attempt.sh carol 'Passw0rd!' 198.51.100.2
CMD
event="$(login_errors http://127.0.0.1:8080 1)"
[ "$event" = '{"ipAddress":"198.51.100.1","error":"abuse_gate_blocked","layer":"per_ip"}' ] \
  || fail "expected the block's event under the X-Forwarded-For address 198.51.100.1, layer per_ip: $event"

say "-- layer 2, per address + account (6 per 900 s)"
doc_step "$DOC" "$(rep 6 '302 logged-in')" <<'CMD'
for i in 1 2 3 4 5 6; do demo/attempt.sh alice 'Passw0rd!' 198.51.100.20; done
CMD
doc_step "$DOC" "429 blocked" <<'CMD'
demo/attempt.sh alice 'Passw0rd!' 198.51.100.20
CMD
doc_step "$DOC" "302 logged-in" <<'CMD'
demo/attempt.sh bob   'Passw0rd!' 198.51.100.20
CMD
doc_step "$DOC" "302 logged-in" <<'CMD'
demo/attempt.sh alice 'Passw0rd!' 198.51.100.21
CMD

say "-- layer 3, account lockout (5 failures per 900 s, locked 120 s)"
doc_step "$DOC" "$(rep 5 '200 invalid-credentials')" <<'CMD'
for n in 1 2 3 4 5; do demo/attempt.sh bob wrong 203.0.113.$n; done
CMD
doc_step "$DOC" "429 blocked" <<'CMD'
demo/attempt.sh bob   'Passw0rd!' 203.0.113.9
CMD
doc_step "$DOC" "302 logged-in" <<'CMD'
demo/attempt.sh carol 'Passw0rd!' 203.0.113.9
CMD
doc_step "$DOC" "302 logged-in" <<'CMD'
sleep 120; demo/attempt.sh bob 'Passw0rd!' 203.0.113.9
CMD

say "-- layer 4, credential stuffing (4 usernames per 600 s)"
doc_step "$DOC" "$(rep 5 '200 invalid-credentials')" <<'CMD'
for u in alice bob carol dave alice; do demo/attempt.sh $u wrong 192.0.2.50; done
CMD
doc_step "$DOC" "429 blocked" <<'CMD'
demo/attempt.sh erin  wrong       192.0.2.50
CMD
doc_step "$DOC" "429 blocked" <<'CMD'
demo/attempt.sh alice 'Passw0rd!' 192.0.2.50
CMD

# "Each gate answer shows up ... in curl -s localhost:9000/metrics | grep abuse_gate_decisions": a block on every layer
out="$(curl -s localhost:9000/metrics | grep abuse_gate_decisions)"
for layer in per_ip per_ip_account account_lockout credential_stuffing; do
  grep -qE "^abuse_gate_decisions_total\{layer=\"$layer\",outcome=\"blocked\",realm=\"demo\"\} [1-9]" <<<"$out" \
    || fail "no blocked answer of layer $layer on /metrics:
$out"
done
say "/metrics: blocked answers counted on all four layers"
compose_down
say "PASSED: docker-compose.yml"
