#!/usr/bin/env bash
# One browser-style login attempt against the demo realm, as curl: opens the login page of the
# demo-app client, posts the form, prints what came back.
#
#   demo/attempt.sh USERNAME PASSWORD [CLIENT_ADDRESS]
#
# CLIENT_ADDRESS is sent as X-Forwarded-For. Keycloak uses it only when started with
# --proxy-headers=xforwarded (demo/run.sh --proxy-headers=xforwarded); otherwise the attempt
# counts under the real address of this machine.
#
# Prints one line: the HTTP status and what it means, e.g.
#   302 logged-in | 200 invalid-credentials | 429 blocked | 429 captcha_required
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 USERNAME PASSWORD [CLIENT_ADDRESS]" >&2
  exit 2
fi
user="$1"
pass="$2"
addr="${3:-}"
base="${KEYCLOAK_URL:-http://localhost:8080}"
realm="${REALM:-demo}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
fwd=()
if [ -n "$addr" ]; then
  fwd=(-H "X-Forwarded-For: $addr")
fi

curl -sS -c "$work/jar" -b "$work/jar" "${fwd[@]}" -o "$work/page" \
  "$base/realms/$realm/protocol/openid-connect/auth?client_id=demo-app&response_type=code&scope=openid&redirect_uri=http%3A%2F%2Flocalhost%3A8080%2F"
action="$(grep -o 'action="[^"]*login-actions/authenticate[^"]*"' "$work/page" | head -n 1 \
  | sed -e 's/^action="//' -e 's/"$//' -e 's/&amp;/\&/g' || true)"
if [ -z "$action" ]; then
  echo "no login form at $base/realms/$realm (is the demo running, with the provider installed?)" >&2
  exit 1
fi

status="$(curl -sS -c "$work/jar" -b "$work/jar" "${fwd[@]}" -o "$work/answer" -w '%{http_code}' \
  --data-urlencode "username=$user" --data-urlencode "password=$pass" "$action")"
code="$(grep -o 'id="abuse-gate-status"[^>]*data-code="[^"]*"' "$work/answer" | sed 's/.*data-code="//; s/"$//' || true)"

case "$status" in
  302) echo "302 logged-in" ;;
  429) echo "429 ${code:-unknown}" ;;
  200)
    if grep -q 'id="input-error' "$work/answer"; then
      echo "200 invalid-credentials"
    else
      echo "200 login-page"
    fi
    ;;
  *) echo "$status unexpected" ;;
esac
