# Shared by the compose smoke tests (demo.sh, cluster.sh); sourced, not run. They start the repository's
# compose files with the commands the docs give, word for word, and check the result from the outside over
# the published ports on 127.0.0.1.
#
# The docs say `docker compose` (Compose v2). Where only Compose v1 is installed (Debian's docker-compose
# 1.29) the `docker` function below runs `docker-compose` for it. It changes two things, both said here:
#   - the project name: `-p NAME` becomes `-p NAME-$SMOKE_ID`, and a command without -p gets the project
#     $SMOKE_PROJECT (from the test), so the tests never touch a project of the same name on this machine;
#   - Compose v2's `up` gets `--pull never` (v1 has no such flag: require_images checks first that every
#     image is on the engine, so v1 has nothing to pull). No registry is reachable from CI.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SMOKE_ID="${SMOKE_ID:-smoke$$}"
SMOKE_LOG_DIR="$ROOT/integration-tests/target/compose-smoke"
mkdir -p "$SMOKE_LOG_DIR"
cd "$ROOT"   # the compose files and the docs' commands are relative to the repository root
T0=$SECONDS

say() { echo "[compose-smoke +$((SECONDS - T0))s] $*"; }
fail() { echo "[compose-smoke] FAILED: $*" >&2; exit 1; }

if command docker compose version >/dev/null 2>&1; then COMPOSE_V2=1; else COMPOSE_V2=0; fi
if [ $COMPOSE_V2 = 0 ] && ! command -v docker-compose >/dev/null 2>&1; then
  fail "neither 'docker compose' (v2) nor 'docker-compose' (v1) is installed"
fi

# `docker compose ARGS` as the docs write it; any other docker command goes to the real client.
docker() {
  if [ "${1:-}" != compose ]; then command docker "$@"; return; fi
  shift
  local args=() project=""
  while [ $# -gt 0 ]; do
    case "$1" in
      -p) project="$2-$SMOKE_ID"; shift 2 ;;
      *) args+=("$1"); shift ;;
    esac
  done
  project="${project:-${SMOKE_PROJECT:?the test sets SMOKE_PROJECT}}"
  if [ $COMPOSE_V2 = 1 ]; then
    local i out=()
    for i in "${args[@]}"; do out+=("$i"); [ "$i" = up ] && out+=(--pull never); done
    command docker compose -p "$project" "${out[@]}"
  else
    docker-compose -p "$project" "${args[@]}"
  fi
}

# Fails unless nothing listens on these TCP ports (on any address): the compose files publish fixed ports.
require_free_ports() {
  local p
  for p in "$@"; do
    if ss -ltnH "sport = :$p" | grep -q .; then
      fail "port $p is already in use on this machine (the compose files publish it); stop what listens there: $(ss -ltnpH "sport = :$p" | head -n 1)"
    fi
  done
}

# Fails when a port still has a listener (after teardown).
require_ports_closed() {
  local p
  for p in "$@"; do
    ss -ltnH "sport = :$p" | grep -q . && fail "port $p is still bound after the teardown: $(ss -ltnpH "sport = :$p" | head -n 1)"
  done
  return 0
}

# Every image FILE names must already be on the engine: nothing here may pull.
require_images() {
  local file=$1 img images
  images="$(docker compose -f "$file" config | awk '$1 == "image:" {print $2}' | sort -u)" || fail "$file: config failed"
  [ -n "$images" ] || fail "$file names no image"
  for img in $images; do
    command docker image inspect "$img" >/dev/null 2>&1 \
      || fail "image $img is not on the Docker engine, and CI may not pull; build the stand-ins (.ci/docker runs ../shared/docker/stand-in-images.sh)"
  done
}

# Fails when PROJECT exists already (containers or networks): someone else's, or a leftover to look at.
require_no_project() {
  local project=$1
  [ -z "$(command docker ps -aq --filter "label=com.docker.compose.project=$project")" ] \
    || fail "compose project $project already has containers; not touching it"
}

# After `down`: no container, network or volume of PROJECT is left.
require_project_gone() {
  local project=$1 left
  left="$(command docker ps -aq --filter "label=com.docker.compose.project=$project")"
  [ -z "$left" ] || fail "containers of $project left after down: $left"
  left="$(command docker network ls -q --filter "label=com.docker.compose.project=$project")"
  [ -z "$left" ] || fail "networks of $project left after down: $left"
  left="$(command docker volume ls -q --filter "label=com.docker.compose.project=$project")"
  [ -z "$left" ] || fail "volumes of $project left after down: $left"
}

# Waits until URL answers 200 (at most SECONDS seconds).
wait_for() {
  local url=$1 timeout=$2 start=$SECONDS
  until curl -sf -o /dev/null --max-time 5 "$url"; do
    [ $((SECONDS - start)) -lt "$timeout" ] || fail "$url did not answer 200 within $timeout s"
    sleep 2
  done
}

# doc_run DOC <<'CMD' ... CMD
# Each line of CMD must appear word for word in DOC (a code block there); CMD then runs in the repository
# root (bash, with the functions the test defined) and must succeed. Its output is shown and kept in DOC_OUT.
doc_run() {
  local doc=$1 cmd line
  cmd="$(cat)"
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    grep -qF -- "$line" "$ROOT/$doc" || fail "not in $doc word for word (update the test with the docs): $line"
  done <<<"$cmd"
  say "\$ $cmd"
  DOC_OUT="$(cd "$ROOT" && eval "$cmd" 2>&1)" || fail "exit code $? from: $cmd; output:
$DOC_OUT"
  [ -z "$DOC_OUT" ] || printf '%s\n' "$DOC_OUT" | sed 's/^/    /'
}

# doc_step DOC EXPECTED <<'CMD' ... CMD: doc_run, and the output must be exactly EXPECTED.
doc_step() {
  local doc=$1 expected=$2
  doc_run "$doc"
  [ "$DOC_OUT" = "$expected" ] || fail "unexpected output; expected:
$expected"
}

# rep N LINE: LINE N times (expected outputs).
rep() { local i; for ((i = 0; i < $1; i++)); do echo "$2"; done; }

# The bootstrap admin's token (admin / admin, as the compose files set) from BASE_URL's master realm.
admin_token() {
  curl -sf -d grant_type=password -d client_id=admin-cli -d username=admin -d password=admin \
    "$1/realms/master/protocol/openid-connect/token" | jq -r .access_token
}

# captcha_band BASE_URL true|false: the demo realm's gated steps' captcha band on or off, as the docs do in
# the admin console (Authentication, the flow, the step's gear icon, captcha.enabled), through the admin API.
captcha_band() {
  local base=$1 on=$2 token id cfg
  token="$(admin_token "$base")"
  id="$(curl -sf -H "Authorization: Bearer $token" "$base/admin/realms/demo/authentication/flows/abuse-gate%20browser/executions" \
    | jq -r '.[] | select(.providerId == "abuse-gate-username-password-form") | .authenticationConfig')"
  [ -n "$id" ] && [ "$id" != null ] || fail "no step configuration on the demo realm's abuse-gate browser flow"
  cfg="$(curl -sf -H "Authorization: Bearer $token" "$base/admin/realms/demo/authentication/config/$id")"
  [ "$(jq -r .alias <<<"$cfg")" = abuse-gate-demo ] || fail "unexpected step configuration: $cfg"
  curl -sf -X PUT -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "$(jq -c --arg on "$on" '.config["captcha.enabled"] = $on' <<<"$cfg")" \
    "$base/admin/realms/demo/authentication/config/$id" >/dev/null || fail "could not save the step configuration"
  say "captcha band of abuse-gate-demo: $on"
}

# The newest LOGIN_ERROR events of the demo realm, one JSON object per line: {ipAddress, error, layer, userId}.
login_errors() {
  local base=$1 max=$2 token
  token="$(admin_token "$base")"
  curl -sf -H "Authorization: Bearer $token" "$base/admin/realms/demo/events?type=LOGIN_ERROR&max=$max" \
    | jq -c '.[] | {ipAddress, error, layer: .details.abuse_gate_layer}'
}
