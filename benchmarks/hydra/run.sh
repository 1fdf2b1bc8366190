#!/usr/bin/env bash
# THC Hydra against the password grant of two realms on one Keycloak 26.7.3: stock (Keycloak's own
# brute-force detection on) and gated (this project's direct-grant gate, production defaults).
#
#   benchmarks/hydra/run.sh                    build, fetch Keycloak, start it, attack, print the table
#   USERS=300 GUESSES=300 TASKS=4 ...          accounts for the spray, passwords for the guess attack, hydra -t
#   OUT=file ...                               raw output (default benchmarks/results/hydra-<UTC date>.txt)
#
# Needs JDK 17 or later, curl, jq and hydra (Debian: apt-get install -y hydra). Everything runs on 127.0.0.1 on
# free ports; the Keycloak started here is stopped on exit (by its own pid).
# About 6-8 minutes on 2 cores, most of it Keycloak's start and the password hashes of account creation.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/../load/common.sh"
HERE="$ROOT/benchmarks/hydra"
TARGET="$HERE/target"
KC_HOME="$TARGET/keycloak-$KEYCLOAK_VERSION"
USERS="${USERS:-300}"
GUESSES="${GUESSES:-300}"
TASKS="${TASKS:-4}"
HYDRA_TIMEOUT="${HYDRA_TIMEOUT:-240}"
OUT="${OUT:-$ROOT/benchmarks/results/hydra-$(date -u +%Y-%m-%d).txt}"
OWNER_ADDRESS=10.9.8.7   # where the account owner logs in from afterwards (a private address, via X-Forwarded-For)

for tool in hydra curl jq java; do
  command -v "$tool" > /dev/null || { echo "needs $tool (hydra: apt-get install -y hydra)" >&2; exit 1; }
done
mkdir -p "$TARGET" "$(dirname "$OUT")"
WORK="$(mktemp -d "$TARGET/run.XXXXXX")"
exec > >(tee "$OUT") 2>&1
cd "$ROOT"

KC_PID=""
cleanup() { stop_pid "$KC_PID" Keycloak; }
trap cleanup EXIT
trap 'exit 130' INT TERM

machine_info
echo "hydra: $(hydra -h 2>&1 | head -1 | cut -d' ' -f1-2)"
echo "keycloak: $KEYCLOAK_VERSION; accounts: $USERS + owner; guesses: $GUESSES; hydra -t $TASKS"

prepare_jar_and_dist
rm -f "$KC_HOME"/providers/keycloak-abuse-gate-*.jar
cp "$ROOT"/providers/keycloak-abuse-gate-*.jar "$KC_HOME/providers/"
rm -rf "$KC_HOME/data"

HTTP_PORT=$(free_port)
MGMT_PORT=$(free_port "$HTTP_PORT")
HTTPS_PORT=$(free_port "$HTTP_PORT" "$MGMT_PORT")
KC="http://127.0.0.1:$HTTP_PORT"
KC_LOG="$WORK/keycloak.log"

echo "==> kc.sh build (--cache=local, dev-file database, metrics on)"
"$KC_HOME/bin/kc.sh" build --cache=local --db=dev-file --metrics-enabled=true > "$WORK/keycloak-build.log" 2>&1
# The HTTP access log (one line per request, with its status) is the count of answers independent of
# the events; --proxy-headers lets the owner's own login come from another address (X-Forwarded-For).
echo "==> Starting Keycloak on 127.0.0.1:$HTTP_PORT (log: $KC_LOG)"
KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=admin \
  "$KC_HOME/bin/kc.sh" start --optimized \
  --http-enabled=true --http-host=127.0.0.1 --http-port="$HTTP_PORT" --https-port="$HTTPS_PORT" \
  --http-management-port="$MGMT_PORT" --hostname-strict=false --proxy-headers=xforwarded \
  --http-access-log-enabled=true > "$KC_LOG" 2>&1 &
KC_PID=$!
for i in $(seq 1 300); do
  kill -0 "$KC_PID" 2>/dev/null || { echo "Keycloak exited:"; tail -30 "$KC_LOG"; exit 1; }
  curl -sf -o /dev/null "$KC/realms/master/.well-known/openid-configuration" && break
  sleep 1
done

# --- admin API helpers ---------------------------------------------------------------------------
admin_token() {
  curl -sf "$KC/realms/master/protocol/openid-connect/token" \
    -d grant_type=password -d client_id=admin-cli -d username=admin -d password=admin | jq -r .access_token
}
adm() { # adm METHOD PATH [JSON-FILE]
  local args=(-sf -X "$1" -H "Authorization: Bearer $(admin_token)")
  [ $# -ge 3 ] && args+=(-H "Content-Type: application/json" --data-binary "@$3")
  curl "${args[@]}" "$KC/admin$2"
}
# the gate's refusals so far in REALM with OUTCOME (blocked or captcha_required), from its metric: every refusal
# counts there, while its events are bounded (events.refusalsPerMinute)
refusals() { # refusals REALM OUTCOME
  curl -sf "http://127.0.0.1:$MGMT_PORT/metrics" \
    | awk -v r="realm=\"$1\"" -v o="outcome=\"$2\"" 'index($0, "abuse_gate_decisions_total{") == 1 && index($0, r) && index($0, o) \
      {s += $NF} END {printf "%d", s}'
}
# status of one password-grant login of the owner from ADDRESS (empty: no forwarding header, i.e. 127.0.0.1)
owner_login() { # owner_login REALM ADDRESS
  local hdr=()
  [ -n "$2" ] && hdr=(-H "X-Forwarded-For: $2")
  curl -s -o "$WORK/owner-login.json" -w '%{http_code}' "${hdr[@]}" \
    "$KC/realms/$1/protocol/openid-connect/token" \
    -d grant_type=password -d client_id=hydra-target -d username=owner --data-urlencode "password=$OWNER_PASSWORD"
}

# --- accounts and realms ---------------------------------------------------------------------------
SPRAY_PASSWORD="Spring2026!"
OWNER_PASSWORD="owner-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
WEAK="user050 user150 user250"   # the three accounts whose password is the sprayed one
seq -f 'user%03g' 1 "$USERS" > "$WORK/spray-users.txt"
echo owner >> "$WORK/spray-users.txt"
seq -f 'Passw0rd%03g!' 1 "$GUESSES" > "$WORK/guesses.txt"   # the owner's real password is not among them

jq -n --arg users "$USERS" --arg spray "$SPRAY_PASSWORD" --arg owner "$OWNER_PASSWORD" --arg weak "$WEAK" \
  --arg salt "$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')" '
  def user(name; pw): {username: name, enabled: true, emailVerified: true, firstName: name, lastName: "Test",
    email: (name + "@example.com"), credentials: [{type: "password", value: pw, temporary: false}]};
  ($weak | split(" ")) as $w
  | [range(1; ($users | tonumber) + 1) | ("user" + (if . < 10 then "00" elif . < 100 then "0" else "" end) + tostring)]
  | map(user(.; if (. as $n | $w | any(. == $n)) then $spray else ("x-" + $salt + "-" + .) end))
  + [user("owner"; $owner)]' > "$WORK/users.json"

realm_json() { # realm_json NAME GATED
  jq -n --arg name "$1" --argjson gated "$2" --slurpfile users "$WORK/users.json" '
  {realm: $name, enabled: true, eventsEnabled: true, enabledEventTypes: ["LOGIN", "LOGIN_ERROR"],
   clients: [{clientId: "hydra-target", publicClient: true, directAccessGrantsEnabled: true,
              standardFlowEnabled: false}],
   users: $users[0]}
  + if $gated then
      {authenticationFlows: [{alias: "gated direct grant", providerId: "basic-flow", topLevel: true, builtIn: false,
         description: "Direct grant with the abuse gate; no config: the production defaults",
         authenticationExecutions: [{authenticator: "abuse-gate-direct-grant", requirement: "REQUIRED",
           priority: 10, authenticatorFlow: false, userSetupAllowed: false}]}],
       directGrantFlow: "gated direct grant"}
    else
      {bruteForceProtected: true, permanentLockout: false, failureFactor: 30}
    end'
}
echo "==> Creating realms 'stock' and 'gated' with $USERS accounts + owner each (admin REST API)"
for r in stock gated; do
  realm_json "$r" "$([ $r = gated ] && echo true || echo false)" > "$WORK/realm-$r.json"
  start=$(date +%s)
  adm POST /realms "$WORK/realm-$r.json" > /dev/null
  echo "    $r: $(adm GET "/realms/$r/users/count") users in $(( $(date +%s) - start )) s"
done
echo "stock realm brute-force settings: $(adm GET /realms/stock | jq -c '{bruteForceProtected, permanentLockout, failureFactor,
  waitIncrementSeconds, maxFailureWaitSeconds, quickLoginCheckMilliSeconds, minimumQuickLoginWaitSeconds, maxDeltaTimeSeconds, maxTemporaryLockouts}')"
echo "gated realm: direct grant flow '$(adm GET /realms/gated | jq -r .directGrantFlow)' = abuse-gate-direct-grant without config (defaults), bruteForceProtected $(adm GET /realms/gated | jq -r .bruteForceProtected)"

reset_realm() { # forget earlier attempts: events, Keycloak's brute-force state, the gate's state for 127.0.0.1 and owner
  adm DELETE "/realms/$1/events" > /dev/null
  adm DELETE "/realms/$1/attack-detection/brute-force/users" > /dev/null
  if [ "$1" = gated ]; then
    adm DELETE "/realms/gated/abuse-gate/state?address=127.0.0.1&identifier=owner" > /dev/null
  fi
}

# "400=298 429=3": statuses of the token requests to REALM in the access log after line MARK
statuses() { # statuses MARK REALM
  tail -n +"$(( $1 + 1 ))" "$KC_LOG" | grep -F "\"POST /realms/$2/protocol/openid-connect/token " \
    | awk '{print $(NF-1)}' | sort | uniq -c | awk '{printf "%s%s=%s", (NR > 1 ? " " : ""), $2, $1}'
}

# --- the attacks -------------------------------------------------------------------------------------
declare -A R
run_attack() { # run_attack REALM KIND
  local realm=$1 kind=$2 key="$1.$2" form start secs
  reset_realm "$realm"
  local mark; mark=$(wc -l < "$KC_LOG")
  local blocked0 captcha0; blocked0=$(refusals "$realm" blocked); captcha0=$(refusals "$realm" captcha_required)
  form="/realms/$realm/protocol/openid-connect/token:grant_type=password&client_id=hydra-target&username=^USER^&password=^PASS^:g=:S=access_token"
  local creds=(-L "$WORK/spray-users.txt" -p "$SPRAY_PASSWORD")
  [ "$kind" = guess ] && creds=(-l owner -P "$WORK/guesses.txt")
  echo
  echo "==> $realm / $kind: hydra ${creds[0]} ... -t $TASKS -s $HTTP_PORT 127.0.0.1 http-post-form \"$form\""
  start=$(date +%s)
  (cd "$WORK" && timeout "$HYDRA_TIMEOUT" hydra -I "${creds[@]}" -t "$TASKS" -s "$HTTP_PORT" 127.0.0.1 http-post-form "$form" \
    > "$WORK/hydra-$key.txt" 2>&1) || echo "    (hydra exit $?; 124 = stopped by the ${HYDRA_TIMEOUT}s bound)"
  secs=$(( $(date +%s) - start ))
  sed -e 's/password: .*/password: (hidden)/' -e 's/^/    | /' "$WORK/hydra-$key.txt" | grep -v 'ATTEMPT\|^    | $' | tail -8
  R[$key.secs]=$secs
  sleep 1
  R[$key.statuses]=$(statuses "$mark" "$realm")
  R[$key.found]=$(grep -c '\[http-post-form\] host:' "$WORK/hydra-$key.txt" || true)
  adm GET "/realms/$realm/events?max=100000" > "$WORK/events-$key.json"
  echo "    Keycloak answered (HTTP status=count, access log): ${R[$key.statuses]}"
  echo "    events: $(jq -c 'group_by(.type + " " + (.error // "")) | map({(.[0].type + " " + (.[0].error // "")): length}) | add // {}' "$WORK/events-$key.json")"
  if [ "$realm" = gated ]; then
    echo "    gate answers by layer (recorded refusal events only, at most events.refusalsPerMinute a minute): $(jq -c '[.[] | select(.error // "" | startswith("abuse_gate")) | .details.abuse_gate_layer + " " + .error]
      | group_by(.) | map({(.[0]): length}) | add // {}' "$WORK/events-$key.json")"
  fi
  count() { jq "[.[] | select($1)] | length" "$WORK/events-$key.json"; }
  R[$key.verified]=$(count '.type == "LOGIN" or .error == "invalid_user_credentials"')
  R[$key.success]=$(count '.type == "LOGIN"')
  R[$key.kclock]=$(count '.error == "user_temporarily_disabled"')
  local blocked1 captcha1; blocked1=$(refusals "$realm" blocked); captcha1=$(refusals "$realm" captcha_required)
  R[$key.captcha]=$(( captcha1 - captcha0 ))
  R[$key.gate]=$(( blocked1 - blocked0 + captcha1 - captcha0 ))
  R[$key.other]=$(count '.type == "LOGIN_ERROR" and ((.error // "") | IN("invalid_user_credentials", "user_temporarily_disabled", "abuse_gate_blocked", "abuse_gate_captcha_required") | not)')
  R[$key.requests]=$(echo "${R[$key.statuses]}" | tr ' ' '\n' | awk -F= '{n += $2} END {print n + 0}')
  R[$key.s429]=$(echo "${R[$key.statuses]}" | tr ' ' '\n' | awk -F= '$1 == 429 {print $2}'); R[$key.s429]=${R[$key.s429]:-0}
  local elsewhere here t0
  t0=$(date +%s%3N)
  elsewhere=$(owner_login "$realm" "$OWNER_ADDRESS")
  R[$key.owner_elsewhere]="$elsewhere $(jq -r '.error // "token"' "$WORK/owner-login.json")"
  here=$(owner_login "$realm" "")
  R[$key.owner_here]="$here $(jq -r '.error // "token"' "$WORK/owner-login.json")"
  echo "    owner's real password afterwards: from $OWNER_ADDRESS -> ${R[$key.owner_elsewhere]}; from 127.0.0.1 -> ${R[$key.owner_here]}"
  # only events stored since t0: a refusal past events.refusalsPerMinute records none (the 429 above still counts)
  echo "    events of those two logins (newest first; a refusal past the realm's refusal event budget has none): $(adm GET "/realms/$realm/events?max=100" \
    | jq -c --argjson t0 "$t0" 'map(select(.time >= $t0) | {ip: .ipAddress, type, error, layer: .details.abuse_gate_layer} | with_entries(select(.value != null)))')"
  if [ "$realm" = gated ]; then
    echo "    the gate's state for owner afterwards (admin API): $(adm GET "/realms/$realm/abuse-gate/state?identifier=owner" | jq -c '.identifier // {}')"
  fi
}

for realm in stock gated; do
  for kind in spray guess; do
    run_attack "$realm" "$kind"
  done
done

# --- the same hydra with a failure condition: what it makes of the gate's 429 ------------------------
echo
echo "==> hydra with F=invalid_grant (failure condition) on the gated realm, 3 guesses for owner, right after the guess attack"
mark=$(wc -l < "$KC_LOG")
(cd "$WORK" && head -3 "$WORK/guesses.txt" > "$WORK/three.txt" && timeout 60 hydra -I -l owner -P "$WORK/three.txt" -t 1 -s "$HTTP_PORT" 127.0.0.1 http-post-form \
  "/realms/gated/protocol/openid-connect/token:grant_type=password&client_id=hydra-target&username=^USER^&password=^PASS^:g=:F=invalid_grant" \
  > "$WORK/hydra-fcond.txt" 2>&1) || true
sleep 1
echo "    Keycloak answered (HTTP status=count): $(statuses "$mark" gated); hydra: $(grep -E 'valid password' "$WORK/hydra-fcond.txt" | tail -1)"

# --- the table ----------------------------------------------------------------------------------------
row() { # row LABEL FIELD
  printf '| %s | %s | %s | %s | %s |\n' "$1" "${R[stock.spray.$2]}" "${R[gated.spray.$2]}" "${R[stock.guess.$2]}" "${R[gated.guess.$2]}"
}
echo
echo "Spray: one password over $USERS accounts + owner (3 accounts use it). Guess: $GUESSES passwords for 'owner' (its real one not among them)."
echo "hydra -t $TASKS straight at Keycloak, success condition S=access_token; all attack traffic from 127.0.0.1."
echo
echo "| | stock, spray | gated, spray | stock, guess | gated, guess |"
echo "|---|---|---|---|---|"
row "hydra run time, s" secs
row "token requests hydra sent (Keycloak's access log)" requests
row "passwords Keycloak verified (LOGIN + LOGIN_ERROR invalid_user_credentials)" verified
row "... of which right (LOGIN)" success
row "valid logins hydra reported" found
row "refused by Keycloak's brute-force lock, password not checked (user_temporarily_disabled)" kclock
row "refused by the gate (abuse_gate_decisions_total blocked + captcha_required)" gate
row "... of which captcha_required" captcha
row "HTTP 429 answers (Keycloak's access log)" s429
row "other LOGIN_ERROR events" other
row "owner's real password afterwards, from another address (HTTP status, error)" owner_elsewhere
row "owner's real password afterwards, from the attacker's address 127.0.0.1" owner_here
echo
echo "raw output: $OUT; work files: $WORK"
