#!/usr/bin/env bash
# Smoke test of docker-compose.cluster.yml, as docs/demo.md ("Two nodes") tells a user to run it, checked
# from the outside over the published ports on 127.0.0.1 (nginx 8080-8082, management 9001/9002):
#   - both Keycloak nodes log one cluster view with both of them;
#   - the docs' walk: alice fails through node 1 until 429, then node 2 refuses her right password too;
#   - nginx overwrites X-Forwarded-For: the forged address of that walk is neither in the event nor counted;
#   - (captcha band off) an account locked through node 1 is refused through node 2, another account is not;
#   - (counters cleared) an address blocked through node 2 is blocked through node 1;
#   - /metrics on each node shows that node's own answers;
#   - `down -v` leaves no container, network or volume, and no port bound.
# Every command quoted from docs/demo.md is checked to be there word for word. All attempts reach nginx from
# one address (Docker's port proxy, from the network's gateway): the checks clear that address's counters
# through the gate's admin API between steps. Needs ports 8080-8082, 9001, 9002 free.
# About 3 minutes on a 2-core machine (11 under heavy load), most of it `up -d`.
source "$(dirname "$0")/common.sh"
DOC=docs/demo.md
FILE=docker-compose.cluster.yml
PROJECT="abuse-gate-cluster-$SMOKE_ID"   # what `-p abuse-gate-cluster` becomes (common.sh)
SMOKE_PROJECT="$PROJECT"                  # for the commands without -p
PORTS=(8080 8081 8082 9001 9002)
NODE1=http://127.0.0.1:8081
NODE2=http://127.0.0.1:8082

compose() { docker compose -p abuse-gate-cluster -f "$FILE" "$@"; }
cleanup() {
  local rc=$?
  if [ -n "$(command docker ps -aq --filter "label=com.docker.compose.project=$PROJECT")" ]; then
    [ $rc = 0 ] || compose logs --no-color --tail=80 >"$SMOKE_LOG_DIR/cluster-failure.log" 2>&1 || true
    compose down -v >/dev/null 2>&1 || true
    [ $rc = 0 ] || echo "[compose-smoke] container log tails: $SMOKE_LOG_DIR/cluster-failure.log" >&2
  fi
}
trap cleanup EXIT

# grant PORT PASSWORD USER [curl args]: the password grant, "<status> <error or token_type>"
grant() {
  local out
  out="$(curl -s -w '\n%{http_code}' "http://127.0.0.1:$1/realms/demo/protocol/openid-connect/token" \
    -d grant_type=password -d client_id=demo-app -d "username=$3" -d "password=$2" "${@:4}")"
  echo "$(tail -n 1 <<<"$out") $(head -n -1 <<<"$out" | jq -r '.error // .token_type')"
}
expect_grant() {  # EXPECTED PORT PASSWORD USER [curl args]
  local expected=$1 got
  shift
  got="$(grant "$@")"
  say "through :$1, $3 with ${2/Passw0rd!/the right password}: $got"
  [ "$got" = "$expected" ] || fail "expected $expected"
}
clear_state() {  # QUERY (address=...&identifier=...)
  local token
  token="$(admin_token "$NODE1")"
  curl -sf -X DELETE -H "Authorization: Bearer $token" "$NODE1/admin/realms/demo/abuse-gate/state?$1" >/dev/null \
    || fail "could not clear the gate's state for $1"
}
gate_state() {  # QUERY
  local token
  token="$(admin_token "$NODE1")"
  curl -sf -H "Authorization: Bearer $token" "$NODE1/admin/realms/demo/abuse-gate/state?$1"
}

require_no_project "$PROJECT"
require_free_ports "${PORTS[@]}"
ls "$ROOT"/providers/keycloak-abuse-gate-*.jar >/dev/null 2>&1 \
  || fail "no JAR in providers/ (the docs' first step: ./mvnw -B -DskipTests package; demo.sh runs it)"
require_images "$FILE"

say "== $FILE, as docs/demo.md 'Two nodes' gives it"
doc_run "$DOC" <<'CMD'
docker compose -p abuse-gate-cluster -f docker-compose.cluster.yml up -d    # node 2 starts once node 1 is ready
CMD
wait_for "$NODE1/realms/demo" 120
wait_for "$NODE2/realms/demo" 120
wait_for http://127.0.0.1:9001/health/ready 60
wait_for http://127.0.0.1:9002/health/ready 60
say "both nodes answer through nginx"

# One cluster: each node's newest Infinispan view (ISPN000094) has both nodes, and it is the same view.
# (Keycloak may log the view a little after it reports ready: wait up to 120 s.)
newest_view() {
  compose logs --no-color "$1" | grep -o 'ISPN000094: Received new cluster view for channel ISPN: .*' | tail -n 1 \
    | sed 's/^ISPN000094: Received new cluster view for channel ISPN: //'
}
start=$SECONDS
until v1="$(newest_view keycloak-1)"; v2="$(newest_view keycloak-2)"; grep -qF ' (2) [' <<<"$v1" && [ "$v1" = "$v2" ]; do
  [ $((SECONDS - start)) -lt 120 ] || fail "no common 2-node cluster view; keycloak-1: ${v1:-none}; keycloak-2: ${v2:-none}"
  sleep 3
done
say "one cluster view on both nodes: $v1"

say "-- the docs' walk: alice fails through node 1, then node 2 refuses her right password"
doc_run "$DOC" <<'CMD'
token() { curl -s -w ' HTTP %{http_code}\n' "http://localhost:$1/realms/demo/protocol/openid-connect/token" \
  -d grant_type=password -d client_id=demo-app -d username=alice -d "password=$2" "${@:3}"; }
for i in 1 2 3 4 5; do token 8081 wrong; done                  # node 1
token 8082 'Passw0rd!' -H 'X-Forwarded-For: 203.0.113.9'        # node 2: 429 as well
CMD
# the answers without their bodies' details (a captcha answer carries a fresh challenge each time)
answers="$(sed -E 's/^\{"error":"([a-z_]+)".* HTTP ([0-9]+)$/\2 \1/' <<<"$DOC_OUT")"
[ "$answers" = "$(rep 3 '400 invalid_grant'; rep 3 '429 captcha_required')" ] \
  || fail "expected 3 x 400 invalid_grant, then 429 captcha_required through node 1 and through node 2; got:
$answers"
say "node 2 refused alice after her failures through node 1 (layer 2's captcha band, 3 of 6)"

# nginx overwrote the forged X-Forwarded-For: node 2's answer counts under the address that connected to
# nginx (Docker's port proxy, on the network's gateway 172.28.5.1), and 203.0.113.9 has no counters at all
event="$(login_errors "$NODE1" 1)"
[ "$event" = '{"ipAddress":"172.28.5.1","error":"abuse_gate_captcha_required","layer":"per_ip_account"}' ] \
  || fail "expected node 2's answer under 172.28.5.1, not the forged 203.0.113.9: $event"
forged="$(gate_state 'address=203.0.113.9' | jq -c '.address | {attempts, distinctIdentifiers}')"
[ "$forged" = '{"attempts":0,"distinctIdentifiers":0}' ] || fail "the forged address was counted: $forged"
real="$(gate_state 'address=172.28.5.1' | jq -r '.address.attempts')"
[ "$real" = 3 ] || fail "expected alice's 3 counted attempts under 172.28.5.1, got $real"
say "nginx overwrites X-Forwarded-For: the event names 172.28.5.1; 203.0.113.9 has no counters"

say "-- captcha band off; an account locked through node 1 is refused through node 2"
captcha_band "$NODE1" false
clear_state 'address=172.28.5.1&identifier=alice'
for i in 1 2 3 4 5; do expect_grant '400 invalid_grant' 8081 wrong bob; done
expect_grant '429 blocked' 8082 'Passw0rd!' bob
[ "$(login_errors "$NODE1" 1)" = '{"ipAddress":"172.28.5.1","error":"abuse_gate_blocked","layer":"account_lockout"}' ] \
  || fail "expected node 2's block on the account lockout layer: $(login_errors "$NODE1" 1)"
expect_grant '200 Bearer' 8082 'Passw0rd!' carol   # the address is not what is blocked

say "-- an address blocked through node 2 is blocked through node 1"
clear_state 'address=172.28.5.1&identifier=alice'
clear_state 'address=172.28.5.1&identifier=carol'
for u in alice carol alice carol alice carol alice carol alice carol; do expect_grant '200 Bearer' 8082 'Passw0rd!' $u; done
expect_grant '429 blocked' 8082 'Passw0rd!' alice
expect_grant '429 blocked' 8081 'Passw0rd!' carol
[ "$(login_errors "$NODE1" 1)" = '{"ipAddress":"172.28.5.1","error":"abuse_gate_blocked","layer":"per_ip"}' ] \
  || fail "expected node 1's block on the per-address layer: $(login_errors "$NODE1" 1)"

say "-- /metrics on each node: that node's own answers"
doc_run "$DOC" <<'CMD'
curl -s localhost:9002/metrics | grep 'abuse_gate_decisions_total.*outcome="captcha_required"'   # node 2's own answers
CMD
[ "$DOC_OUT" = 'abuse_gate_decisions_total{layer="per_ip_account",outcome="captcha_required",realm="demo"} 1.0' ] \
  || fail "expected node 2's one captcha answer (the docs' walk)"
m1="$(curl -s http://127.0.0.1:9001/metrics | grep '^abuse_gate_decisions_total' | sort)"
m2="$(curl -s http://127.0.0.1:9002/metrics | grep '^abuse_gate_decisions_total' | sort)"
say "node 1:"; sed 's/^/    /' <<<"$m1"; say "node 2:"; sed 's/^/    /' <<<"$m2"
expected1="$(sort <<'OUT'
abuse_gate_decisions_total{layer="per_ip_account",outcome="captcha_required",realm="demo"} 2.0
abuse_gate_decisions_total{layer="none",outcome="allow",realm="demo"} 8.0
abuse_gate_decisions_total{layer="per_ip",outcome="blocked",realm="demo"} 1.0
OUT
)"
expected2="$(sort <<'OUT'
abuse_gate_decisions_total{layer="per_ip_account",outcome="captcha_required",realm="demo"} 1.0
abuse_gate_decisions_total{layer="account_lockout",outcome="blocked",realm="demo"} 1.0
abuse_gate_decisions_total{layer="none",outcome="allow",realm="demo"} 11.0
abuse_gate_decisions_total{layer="per_ip",outcome="blocked",realm="demo"} 1.0
OUT
)"
[ "$m1" = "$expected1" ] || fail "node 1's counters: expected
$expected1"
[ "$m2" = "$expected2" ] || fail "node 2's counters: expected
$expected2"

doc_run "$DOC" <<'CMD'
docker compose -p abuse-gate-cluster -f docker-compose.cluster.yml down -v   # stop, and forget the database
CMD
require_project_gone "$PROJECT"
require_ports_closed "${PORTS[@]}"
say "down -v: no container, network or volume of $PROJECT left; ports ${PORTS[*]} closed"
say "PASSED: $FILE"
