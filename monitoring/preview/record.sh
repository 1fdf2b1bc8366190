#!/usr/bin/env bash
# Records real metrics for the dashboard preview: starts Keycloak 26.7.3 with the provider JAR (a copy of the
# demo's distribution), a Prometheus that scrapes its /metrics every 5 s and evaluates monitoring/prometheus-alerts.yml,
# then drives a short attack with curl on the demo realm's direct grant (its captcha band off here, since curl
# solves no captcha) and login form (demo/attempt.sh). render.py then draws the dashboard's
# panels from that Prometheus (monitoring/dashboard-preview.png).
#
#   DEMO_NO_START=1 demo/run.sh          once: builds the JAR, fetches Keycloak into demo/target/
#   monitoring/preview/record.sh         about 9 minutes; leaves Prometheus running on 127.0.0.1:19090
#   /usr/bin/python3 monitoring/preview/render.py
#   kill "$(cat monitoring/preview/target/prometheus.pid)"
#
# Needs Debian's prometheus and python3-matplotlib. Listens on 127.0.0.1 only: Keycloak 18080 (management
# 19000), Prometheus 19090. The attack (demo thresholds: demo/realm-demo.json), with two users (alice,
# carol) logging in correctly every 2 s, each login from another address (as many users would), throughout:
#   1. credential stuffing: one address tries 40 usernames on the direct grant (blocked);
#   2. lockout: bob's name with wrong passwords from rotating addresses on the login form (captcha band);
#   3. a distributed guess from 60 networks, 3 names each: the realm goes under attack (its realm-wide layer is
#      switched on here with a low entry level) and the small store (max-entries 64) reaches its bound;
#   4. Keycloak restarted with the store's test-support fault injection: every store call fails (outages).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/monitoring/preview"
T="$HERE/target"
SRC="$ROOT/demo/target/keycloak-26.7.3"
KC="$T/keycloak"
URL=http://127.0.0.1:18080
MGMT=http://127.0.0.1:19000
PROM_PORT=19090

[ -x "$SRC/bin/kc.sh" ] || { echo "run DEMO_NO_START=1 demo/run.sh first" >&2; exit 1; }
command -v prometheus >/dev/null || { echo "needs Debian's prometheus (apt-get install prometheus)" >&2; exit 1; }
mkdir -p "$T"
# a Prometheus this script left running earlier
if [ -f "$T/prometheus.pid" ]; then kill "$(cat "$T/prometheus.pid")" 2>/dev/null || true; rm -f "$T/prometheus.pid"; sleep 2; fi
for p in 18080 19000 $PROM_PORT; do
  if (exec 3<>/dev/tcp/127.0.0.1/$p) 2>/dev/null; then echo "port $p is in use" >&2; exit 1; fi
done

rm -rf "$KC" "$T/prometheus-data" "$T"/*.log
cp -a "$SRC" "$KC"
rm -rf "$KC/data/h2" "$KC/data/import"
rm -f "$KC"/providers/keycloak-abuse-gate-*.jar
cp "$ROOT"/providers/keycloak-abuse-gate-*.jar "$KC/providers/"
mkdir -p "$KC/data/import"
# the demo realm, with the realm-wide layer on at a low entry level
/usr/bin/python3 - "$ROOT/demo/realm-demo.json" "$KC/data/import/realm-demo.json" <<'PY'
import json, sys
realm = json.load(open(sys.argv[1]))
for c in realm["authenticatorConfig"]:
    if c["alias"] == "abuse-gate-demo":
        c["config"].update({"realm.enabled": "true", "realm.threshold": "15", "realm.windowSeconds": "60",
                            "realm.minNetworks": "3", "realm.baselineMultiple": "0"})
        # the direct grant without the captcha band, so that curl, which solves no captcha, reaches "blocked"
        plain = {"alias": "abuse-gate-preview-direct", "config": dict(c["config"], **{"captcha.enabled": "false"})}
realm["authenticatorConfig"].append(plain)
for f in realm["authenticationFlows"]:
    for e in f["authenticationExecutions"]:
        if e.get("authenticator") == "abuse-gate-direct-grant":
            e["authenticatorConfig"] = plain["alias"]
json.dump(realm, open(sys.argv[2], "w"))
PY

kc_pid=""
start_kc() {
  KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=admin \
    "$KC/bin/kc.sh" start-dev --import-realm --http-host=127.0.0.1 --http-port=18080 \
    --http-management-port=19000 --metrics-enabled=true --health-enabled=true --proxy-headers=xforwarded \
    --spi-abuse-gate-store--infinispan--max-entries=64 --spi-abuse-gate-store--infinispan--max-protected-entries=64 \
    "$@" >>"$T/keycloak.log" 2>&1 </dev/null &
  kc_pid=$!
  for _ in $(seq 1 600); do
    if curl -sf "$MGMT/health/ready" >/dev/null 2>&1; then return 0; fi
    kill -0 "$kc_pid" 2>/dev/null || { echo "Keycloak exited; see $T/keycloak.log" >&2; exit 1; }
    sleep 1
  done
  echo "Keycloak not ready in 600 s" >&2; exit 1
}
stop_kc() {
  [ -n "$kc_pid" ] || return 0
  kill -TERM "$kc_pid" 2>/dev/null || true
  wait "$kc_pid" 2>/dev/null || true
  kc_pid=""
}
bg=()
cleanup() {
  for p in "${bg[@]}"; do kill "$p" 2>/dev/null || true; done
  stop_kc
}
trap cleanup EXIT
trap 'exit 143' INT TERM

cat >"$T/prometheus.yml" <<YML
global:
  scrape_interval: 5s
  evaluation_interval: 5s
rule_files:
  - $ROOT/monitoring/prometheus-alerts.yml
scrape_configs:
  - job_name: keycloak
    static_configs:
      - targets: ['127.0.0.1:19000']
YML
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/prometheus-data" \
  --web.listen-address=127.0.0.1:$PROM_PORT >"$T/prometheus.log" 2>&1 </dev/null &
echo $! >"$T/prometheus.pid"

echo "==> starting Keycloak (log: $T/keycloak.log)"
start_kc
date -u +%s >"$T/start"

# one direct-grant attempt: USER PASSWORD ADDRESS; prints the HTTP status
attempt() {
  curl -s -o /dev/null -w '%{http_code}\n' -H "X-Forwarded-For: $3" \
    --data-urlencode grant_type=password --data-urlencode client_id=demo-app \
    --data-urlencode "username=$1" --data-urlencode "password=$2" \
    "$URL/realms/demo/protocol/openid-connect/token" || true
}
users() {
  local n=0 u
  while true; do
    for u in alice carol; do
      n=$((n + 1))
      attempt "$u" 'Passw0rd!' "10.1.$((n / 250)).$((n % 250 + 1))" >>"$T/users.log"
    done
    sleep 2
  done
}
users & bg+=($!)

echo "==> quiet minute"
sleep 60
echo "==> 1. credential stuffing from one address"
for i in $(seq 1 40); do attempt "user$i" 'Winter2026!' 192.0.2.10 >>"$T/attack.log"; sleep 0.5; done
sleep 20
echo "==> 2. lockout: bob from rotating addresses, on the login form (captcha band on)"
for i in $(seq 1 30); do
  KEYCLOAK_URL=$URL "$ROOT/demo/attempt.sh" bob "guess$i" "198.51.100.$((i + 10))" >>"$T/attack.log" || true
  sleep 0.5
done
sleep 20
echo "==> 3. distributed guessing: 60 addresses on 60 networks, 3 names each"
for i in $(seq 0 179); do attempt "staff$((i % 45))" 'Summer2026!' "10.$((20 + i % 60)).0.1" >>"$T/attack.log"; sleep 0.3; done
echo "==> quiet, then the store fails"
sleep 90
stop_kc
start_kc --spi-abuse-gate-store--infinispan--test-support-fault-injection=true
sleep 75
date -u +%s >"$T/end"
echo "==> done: Prometheus keeps running on 127.0.0.1:$PROM_PORT (pid $(cat "$T/prometheus.pid")); now render.py"
