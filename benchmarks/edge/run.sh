#!/usr/bin/env bash
# Server CPU per refusal on the token endpoint: a blocked password grant answered at the edge (edge.enabled on)
# against the same refusal answered by the direct grant flow (edge.enabled off), on one Keycloak.
#
#   benchmarks/edge/run.sh            # N=3000 refusals per phase, 5 rounds, 20000 to warm up, 4 in flight
#   N=2000 WARMUP=5000 benchmarks/edge/run.sh
#   PROFILE=1 benchmarks/edge/run.sh  # plus one edge-on phase under JFR, summarised into $PROFILE_OUT
#   MODE=band benchmarks/edge/run.sh   # the captcha band's answer instead of a block (see below)
#   MODE=pair benchmarks/edge/run.sh   # a refusal by layer 2 (address + account); MODE=lockout: by layer 3;
#                                      # MODE=names: by layer 4 (see below)
#   ENDPOINT=form benchmarks/edge/run.sh  # the login form's refusal against a page view (see below)
#
# Two realms, edge-on and edge-off, identical but for edge.enabled: a public client with direct access grants, the
# gate alone in the direct grant flow (layer 1 at 3 attempts in 3600 s, layers 2 and 4 far away, no lockout, no
# captcha). MODE=band: layer 1 far away, layer 4 at 6 distinct names with the captcha band (ALTCHA) from 3, so that every
# answer is the band's captcha_required with a fresh challenge. MODE=pair: layer 1 far away, layer 2 at 3 attempts in
# 3600 s, every request for the one account "victim". MODE=lockout: layers 1 and 2 far away, layer 3 at 3 failures
# (locked for 3600 s), every request for "victim". MODE=names: layer 1 far away, layer 4 at 3 distinct names in 3600 s,
# no captcha band. The edge answers only addresses blocked or in the band on layer 1
# or 4, so in MODE=pair and lockout both realms' refusals come from the flow (their metric line says so). 127.0.0.1 is
# blocked (or in the band) in each realm by 3 wrong passwords, then each phase sends N password grants (a wrong
# password, a fresh unknown name each, or "victim" in MODE=pair and lockout) with curl, every answer checked to be the
# gate's 429. The server's CPU is the
# Keycloak JVM's utime+stime from /proc/<pid>/stat before and after the phase (clock ticks of 10 ms), divided by N.
# Phases alternate edge-on / edge-off in each round after a warm-up of WARMUP refusals per realm. Writes the raw
# output to $OUT (default benchmarks/results/edge-refusal-cpu-<date>.txt).
#
# ENDPOINT=form: the login form has no edge refusal, so one realm (the gate's form alone in a copy of the browser flow,
# the same settings) and two kinds of phases, alternating: "refusal", N form POSTs answered with the gate's 429 page
# (PARALLEL login sessions, each posting to the action of the page it got back, a fresh unknown name each), and
# "page", N GETs of the login page, each opening a new login session: the page view a refusal is compared with.
# form.py sends them (Python's requests).
set -euo pipefail
# shellcheck source=../load/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../load/common.sh"
HERE="$ROOT/benchmarks/edge"
TARGET="$HERE/target"
KC_HOME="$TARGET/keycloak-$KEYCLOAK_VERSION"
N="${N:-3000}"
WARMUP="${WARMUP:-20000}"
ROUNDS="${ROUNDS:-5}"
PARALLEL="${PARALLEL:-4}"
OUT="${OUT:-$ROOT/benchmarks/results/edge-refusal-cpu-$(date -u +%F).txt}"
MODE="${MODE:-block}"
case "$MODE" in block|band|pair|lockout|names) ;; *) echo "MODE must be block, band, pair, lockout or names, not \"$MODE\"" >&2; exit 2 ;; esac
ENDPOINT="${ENDPOINT:-token}"
case "$ENDPOINT" in token|form) ;; *) echo "ENDPOINT must be token or form, not \"$ENDPOINT\"" >&2; exit 2 ;; esac
PROFILE="${PROFILE:-0}"
PROFILE_N="${PROFILE_N:-20000}"
PROFILE_OUT="${PROFILE_OUT:-$ROOT/benchmarks/results/edge-refusal-profile-$(date -u +%F).txt}"
TICK="$(getconf CLK_TCK)"
LOAD_AT_START="$(cut -d' ' -f1-3 /proc/loadavg)"

prepare_jar_and_dist
rm -f "$KC_HOME"/providers/keycloak-abuse-gate-*.jar
cp "$ROOT"/providers/keycloak-abuse-gate-*.jar "$KC_HOME/providers/"
rm -rf "$KC_HOME/data" && mkdir -p "$KC_HOME/data/import"
REALMS="edge-on edge-off"
if [ "$ENDPOINT" = form ]; then REALMS="form"; fi
for realm in $REALMS; do
  python3 - "$realm" "$MODE" > "$KC_HOME/data/import/realm-$realm.json" <<'PY'
import json, sys
realm, mode = sys.argv[1], sys.argv[2]
edge = "on" if realm == "edge-on" else "off"
config = {"perIp.threshold": "3", "perIp.windowSeconds": "3600", "perIpAccount.threshold": "1000000000",
          "credentialStuffing.threshold": "1000000000", "accountLockout.enabled": "false", "captcha.enabled": "false",
          "edge.enabled": "true" if edge == "on" else "false"}
if mode == "pair":
    config.update({"perIp.threshold": "1000000000", "perIpAccount.threshold": "3", "perIpAccount.windowSeconds": "3600"})
if mode == "lockout":
    config.update({"perIp.threshold": "1000000000", "accountLockout.enabled": "true", "accountLockout.threshold": "3",
                   "accountLockout.windowSeconds": "3600", "accountLockout.lockoutSeconds": "3600"})
if mode == "names":
    config.update({"perIp.threshold": "1000000000", "credentialStuffing.threshold": "3",
                   "credentialStuffing.windowSeconds": "3600"})
if mode == "band":
    config.update({"perIp.threshold": "1000000000", "credentialStuffing.threshold": "6",
                   "credentialStuffing.windowSeconds": "3600", "captcha.enabled": "true", "captcha.factor": "0.5"})
form = realm == "form"
step = "abuse-gate-username-password-form" if form else "abuse-gate-direct-grant"
flow = "gated browser" if form else "gated direct grant"
print(json.dumps({
    "realm": realm, "enabled": True, "sslRequired": "none",
    "users": [{"username": "victim", "enabled": True, "credentials": [{"type": "password", "value": "victim-Passw0rd!"}]}],
    "clients": [{"clientId": "bench", "enabled": True, "publicClient": True, "directAccessGrantsEnabled": True,
                 "standardFlowEnabled": form, "redirectUris": ["http://127.0.0.1/*"], "protocol": "openid-connect"}],
    "authenticationFlows": [{"alias": flow, "providerId": "basic-flow", "topLevel": True,
                             "builtIn": False, "authenticationExecutions": [
        {"authenticator": step, "authenticatorConfig": "gate", "requirement": "REQUIRED",
         "priority": 10, "authenticatorFlow": False, "userSetupAllowed": False}]}],
    "authenticatorConfig": [{"alias": "gate", "config": config}],
    ("browserFlow" if form else "directGrantFlow"): flow}))
PY
done

HTTP_PORT=$(free_port); HTTPS_PORT=$(free_port "$HTTP_PORT"); MGMT_PORT=$(free_port "$HTTP_PORT" "$HTTPS_PORT")
KC_PID=""
trap 'stop_pid "$KC_PID" Keycloak' EXIT
mkdir -p "$TARGET"
"$KC_HOME/bin/kc.sh" build --cache=local --db=dev-file --metrics-enabled=true > "$TARGET/keycloak-build.log" 2>&1
export KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=admin
"$KC_HOME/bin/kc.sh" start --optimized --import-realm --http-enabled=true --http-host=127.0.0.1 \
  --http-port="$HTTP_PORT" --https-port="$HTTPS_PORT" --http-management-port="$MGMT_PORT" --hostname-strict=false \
  > "$TARGET/keycloak.log" 2>&1 &
KC_PID=$!
for _ in $(seq 1 600); do
  curl -sf -o /dev/null "http://127.0.0.1:$HTTP_PORT/realms/${REALMS##* }/.well-known/openid-configuration" && break
  kill -0 "$KC_PID" 2>/dev/null || { tail -30 "$TARGET/keycloak.log" >&2; exit 1; }
  sleep 1
done
JAVA_PID=$(jvm_pid "$KC_PID")

# measured <round> <label> <command...>: runs the command (N requests) and prints the round's line: the server's CPU
# and the wall time it took, and the CPU per request.
measured() {
  local r="$1" label="$2" c0 c1 t0 t1 cpu_ms wall_ms
  shift 2
  c0=$(jvm_cpu_ticks "$JAVA_PID"); t0=$(date +%s%N)
  "$@"
  c1=$(jvm_cpu_ticks "$JAVA_PID"); t1=$(date +%s%N)
  cpu_ms=$(( (c1 - c0) * 1000 / TICK )); wall_ms=$(( (t1 - t0) / 1000000 ))
  echo "$r $label $N $cpu_ms $wall_ms $(awk -v c="$cpu_ms" -v n="$N" 'BEGIN {printf "%.3f", c / n}') $(cut -d' ' -f1 /proc/loadavg)"
}

# the account every request names in MODE=pair and lockout (empty: a fresh name each)
case "$MODE" in pair|lockout) ACCOUNT=victim ;; *) ACCOUNT="" ;; esac

# requests <realm> <count> <tag>: writes curl's config for <count> password grants, each a fresh name (or $ACCOUNT).
requests() {
  local realm="$1" count="$2" tag="$3" i
  : > "$TARGET/requests.cfg"
  for i in $(seq 1 "$count"); do
    [ "$i" = 1 ] || echo next >> "$TARGET/requests.cfg"
    printf 'url = "http://127.0.0.1:%s/realms/%s/protocol/openid-connect/token"\ndata = "grant_type=password&client_id=bench&username=%s&password=wrong"\noutput = "/dev/null"\nwrite-out = "%%{http_code}\\n"\n' \
      "$HTTP_PORT" "$realm" "${ACCOUNT:-$tag-$i}" >> "$TARGET/requests.cfg"
  done
}

# send <count>: sends the requests written; fails unless every answer is 429.
send() {
  local codes
  codes=$(curl --no-progress-meter --parallel --parallel-max "$PARALLEL" -K "$TARGET/requests.cfg" 2>> "$TARGET/curl.log" \
    | sort | uniq -c | tr -s ' ')
  case "$codes" in " $1 429") ;; *) echo "unexpected answers: $codes" >&2; exit 1 ;; esac
}

# form_phase <kind> <count> <tag>: ENDPOINT=form's requests (form.py); fails unless every answer is the one expected.
form_phase() {
  python3 "$HERE/form.py" "http://127.0.0.1:$HTTP_PORT" form "$2" "$PARALLEL" "$3" "$1" > "$TARGET/form.out" \
    || { echo "unexpected answers ($1): $(cat "$TARGET/form.out")" >&2; exit 1; }
}

# header: the raw output's first lines, the command as run and the machine.
header() {
  echo "command: $([ "$ENDPOINT" = form ] && echo "ENDPOINT=form ")MODE=$MODE N=$N WARMUP=$WARMUP ROUNDS=$ROUNDS PARALLEL=$PARALLEL benchmarks/edge/run.sh"
  echo "load average before the build: $LOAD_AT_START"
  machine_info
  echo "N=$N WARMUP=$WARMUP ROUNDS=$ROUNDS PARALLEL=$PARALLEL CLK_TCK=$TICK keycloak-jvm-pid=$JAVA_PID"
}

# profiled <command...>: with PROFILE=1, runs one more phase under JFR, after the measured rounds (its CPU is not in
# their table).
profiled() {
  [ "$PROFILE" = 1 ] || return 0
  jcmd "$JAVA_PID" JFR.start name=edge settings=profile filename="$TARGET/edge.jfr" > /dev/null
  "$@"
  jcmd "$JAVA_PID" JFR.stop name=edge > /dev/null
}

form_run() {
  header
  # Three wrong passwords from 127.0.0.1 (the gate's own invalid-credentials page, 200) block it or put it in the band.
  python3 "$HERE/form.py" "http://127.0.0.1:$HTTP_PORT" form 3 1 setup refusals > /dev/null || true
  form_phase refusals "$WARMUP" warm; form_phase pages "$WARMUP" warm
  echo "round kind requests cpu_ms wall_ms cpu_ms_per_request load1"
  for r in $(seq 1 "$ROUNDS"); do
    for kind in refusal page; do
      measured "$r" "$kind" form_phase "${kind}s" "$N" "r$r"
    done
  done
  profiled form_phase refusals "$PROFILE_N" profile
  echo "uptime after: $(uptime)"
}

token_run() {
  header
  for realm in edge-on edge-off; do
    for i in 1 2 3; do
      curl -s -o /dev/null -d "grant_type=password&client_id=bench&username=${ACCOUNT:-block-$i}&password=wrong" \
        "http://127.0.0.1:$HTTP_PORT/realms/$realm/protocol/openid-connect/token"
    done
    requests "$realm" "$WARMUP" "warm"; send "$WARMUP"
  done
  echo "round realm refusals cpu_ms wall_ms cpu_ms_per_refusal load1"
  for r in $(seq 1 "$ROUNDS"); do
    for realm in edge-on edge-off; do
      requests "$realm" "$N" "r$r"
      measured "$r" "$realm" send "$N"
    done
  done
  if [ "$PROFILE" = 1 ]; then requests edge-on "$PROFILE_N" "profile"; fi
  profiled send "$PROFILE_N"
  echo "edge refusals counted by the server:"
  curl -s "http://127.0.0.1:$MGMT_PORT/metrics" | grep '^abuse_gate_edge_refusals_total' || true
  echo "uptime after: $(uptime)"
}

if [ "$ENDPOINT" = form ]; then
  python3 -c "import requests" 2> /dev/null || { echo "ENDPOINT=form needs Python's requests (Debian: python3-requests)" >&2; exit 1; }
  form_run | tee "$OUT"
else
  token_run | tee "$OUT"
fi

if [ "$PROFILE" = 1 ]; then
  mkdir -p "$TARGET/classes"
  javac -d "$TARGET/classes" "$ROOT"/benchmarks/src/main/java/dev/abusegate/benchmarks/attack/JfrSummary.java
  {
    if [ "$ENDPOINT" = form ]; then
      echo "# Where a login form refusal's server CPU goes ($PROFILE_N refusals answered by the flow, MODE=$MODE)"
    else
      echo "# Where an edge refusal's server CPU goes (token endpoint, $PROFILE_N refusals, edge on, MODE=$MODE)"
    fi
    echo
    echo "JFR (\`settings=profile\`) on the Keycloak JVM during one more phase after the rounds of $(basename "$OUT"),"
    echo "summarised by \`dev.abusegate.benchmarks.attack.JfrSummary\`. Nothing else ran against the server."
    echo
    echo '```'
    java -cp "$TARGET/classes" dev.abusegate.benchmarks.attack.JfrSummary "$TARGET/edge.jfr"
    echo '```'
  } > "$PROFILE_OUT"
  echo "profile: $PROFILE_OUT"
fi
