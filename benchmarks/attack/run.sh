#!/usr/bin/env bash
# Availability under attack: real users' logins while open-loop attacks run, stock Keycloak 26.7.3 against the
# abuse gate, on one server, in one run. What it measures and the knobs: benchmarks/attack/README.md.
#
#   benchmarks/attack/run.sh                      build, unpack Keycloak; RUNS times: start Keycloak (and nginx for
#                                                 the nginx row), run every phase, stop them; write the table
#                                                 (benchmarks/results/attack-<UTC date>.md, medians over the runs)
#                                                 and the plot (benchmarks/results/attack-availability.png)
#   RATES="10 50 200 800" PHASE_SECONDS=60 ...    offered attack rates (requests/s) and seconds per phase
#   RUNS=3 REAL_LOGINS=1000 ...                   runs of every configuration; real logins per phase
#   DB=dev-file ...                               Keycloak's dev-file H2 database instead of Debian's PostgreSQL
#                                                 (the default: a throwaway cluster under $WORK)
#   QUIET=1 ...                                   take the machine's quiet window (/work/QUIET) for the measured
#                                                 phases only (after the start and the warm-up), at most 10 minutes
#   LOGIN_CPU_MAX_MS=80 START_DRAWS=10 ...        restart Keycloak (up to START_DRAWS starts a run) while its CPU per
#                                                 login of the bootstrap admin is over LOGIN_CPU_MAX_MS (0: never):
#                                                 each JVM start draws its password hash's speed (README.md)
#
# Everything listens on 127.0.0.1 on free ports (never 8080/9000); client addresses reach Keycloak through
# X-Forwarded-For from 127.0.0.1, the only trusted proxy. The nginx row: Debian's nginx (installed with apt-get when
# missing and this runs as root; otherwise the row is skipped, the results say why) with limit_req per client
# address, which it takes from the driver's X-Forwarded-For (real_ip from 127.0.0.1). The Keycloak and the nginx
# started here are stopped on exit (by their pids).
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/../load/common.sh"
HERE="$ROOT/benchmarks/attack"
TARGET="$HERE/target"
KC_HOME="$TARGET/keycloak-$KEYCLOAK_VERSION"
USERS="${USERS:-400}"
WORK="${WORK:-$TARGET/run}"
export RESULTS="${RESULTS:-$ROOT/benchmarks/results/attack-$(date -u +%Y-%m-%d).md}"
export PLOT="${PLOT:-$ROOT/benchmarks/results/attack-availability.png}"
export PROFILE_OUT="${PROFILE_OUT:-$ROOT/benchmarks/results/attack-profile-$(date -u +%Y-%m-%d).txt}"
export GIT_COMMIT="$(git -C "$ROOT" rev-parse --short HEAD)"
# The command as run, with the knobs that were set (for the results file).
knobs=""
for k in RUNS REALMS RATES SHAPES ENDPOINTS PHASE_SECONDS WARMUP_SECONDS REAL_LOGINS REAL_INTERVAL_MS USERS MAX_INFLIGHT ATTACK_NICE DRAIN_SECONDS \
  SATURATED_FACTOR REAL_TIMEOUT_SECONDS RATE_FLOOR QUIET QUIET_MINUTES PROFILE NGINX_RATE NGINX_BURST DB LOGIN_CPU_MAX_MS START_DRAWS; do
  [ -n "${!k:-}" ] && knobs="$knobs$k=\"${!k}\" "
done
export COMMAND="${knobs}benchmarks/attack/run.sh"
export USERS
RUNS="${RUNS:-3}"
export REALMS="${REALMS:-stock nginx gated}"
# nginx limit_req per client address: NGINX_RATE requests (r/s or r/m), NGINX_BURST answered at once beyond it.
NGINX_RATE="${NGINX_RATE:-1r/s}"
NGINX_BURST="${NGINX_BURST:-5}"
QUIET_FILE="${QUIET_FILE:-/work/QUIET}"
# The database: postgres (Debian's PostgreSQL, a cluster of its own under $WORK), as production runs Keycloak, or
# dev-file (H2 in Keycloak's data/), whose stalls set the real users' p99 (benchmarks/attack/README.md).
DB="${DB:-postgres}"
case "$DB" in dev-file|postgres) ;; *) echo "DB must be dev-file or postgres, not \"$DB\"" >&2; exit 2 ;; esac
# Each Keycloak JVM draws its password hash's speed when the JIT compiles it (README.md#the-hash-a-keycloak-start-draws):
# a start whose CPU per login is over LOGIN_CPU_MAX_MS ms is stopped and started again, up to START_DRAWS starts a run.
LOGIN_CPU_MAX_MS="${LOGIN_CPU_MAX_MS:-80}"
START_DRAWS="${START_DRAWS:-10}"
case "$LOGIN_CPU_MAX_MS$START_DRAWS" in *[!0-9]*) echo "LOGIN_CPU_MAX_MS and START_DRAWS must be whole numbers" >&2; exit 2 ;; esac
[ "$START_DRAWS" -ge 1 ] || { echo "START_DRAWS must be at least 1" >&2; exit 2; }

wait_for_quiet_to_end() {
  # Another helper's quiet window: start nothing until it is over.
  while [ -e "$QUIET_FILE" ] && ! grep -q '^attack ' "$QUIET_FILE" 2>/dev/null; do
    echo "    $(cat "$QUIET_FILE" 2>/dev/null) holds the quiet window; waiting"; sleep 30
  done
}

KC_PID=""
NGINX_PID=""
PG_DIR=""
PG_BIN=""
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
stop_postgres() {
  if [ -n "$PG_DIR" ] && [ -e "$PG_DIR/data/postmaster.pid" ]; then
    as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop > /dev/null 2>&1 || true
  fi
}
cleanup() {
  stop_pid "$NGINX_PID" nginx
  stop_pid "$KC_PID" Keycloak
  stop_postgres
  # Our quiet window, if the driver died without removing it.
  if [ -e "$QUIET_FILE" ] && grep -q '^attack ' "$QUIET_FILE" 2>/dev/null && [ "${QUIET:-0}" = "1" ]; then rm -f "$QUIET_FILE"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

wait_for_quiet_to_end
rm -rf "$WORK" && mkdir -p "$WORK" "$TARGET"
cd "$ROOT"
machine_info | tee "$WORK/machine.txt"

prepare_jar_and_dist
echo "==> Compiling the benchmark (benchmarks/src/main/java/dev/abusegate/benchmarks/attack)"
rm -rf "$TARGET/classes" && mkdir -p "$TARGET/classes"
javac -d "$TARGET/classes" "$ROOT"/benchmarks/src/main/java/dev/abusegate/benchmarks/attack/*.java

# The nginx row needs Debian's nginx: install it (root, apt-get) when it is missing, or skip the row and say why.
nginx_row() { case " $REALMS " in *" nginx "*) return 0 ;; *) return 1 ;; esac; }
# NGINX_BIN names an nginx binary; unset, the one on the PATH or /usr/sbin/nginx, installed when missing.
find_nginx() { command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true; }
if nginx_row && [ -z "${NGINX_BIN:-}" ]; then
  NGINX_BIN="$(find_nginx)"
  if [ -z "$NGINX_BIN" ] && [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
    echo "==> Installing Debian's nginx-light (apt-get) for the nginx row"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q nginx-light > "$WORK/nginx-install.log" 2>&1 || true
    NGINX_BIN="$(find_nginx)"
  fi
fi
if nginx_row; then
  if [ ! -x "${NGINX_BIN:-}" ]; then
    reason="nginx row skipped: no nginx binary (NGINX_BIN=\"${NGINX_BIN:-}\"; unset, run.sh installs Debian's nginx-light with apt-get, which needs root: see nginx-install.log of the raw output)"
    echo "    $reason"
    export SKIPPED_NOTE="$reason"
    REALMS="$(echo " $REALMS " | sed 's/ nginx / /; s/^ *//; s/ *$//')"
    export REALMS
  fi
fi
if nginx_row; then
  export NGINX_NOTE="the stock realm behind $("$NGINX_BIN" -v 2>&1 | sed 's/^nginx version: //') ($NGINX_BIN), \`limit_req\` per client address (\`\$binary_remote_addr\`, rate=$NGINX_RATE burst=$NGINX_BURST nodelay, 429) on the token endpoint and the form POST; the client address comes from the driver's X-Forwarded-For (\`real_ip_header\`, trusted from 127.0.0.1 only), as Keycloak's does; config: nginx/nginx.conf of the raw output"
fi

# start_nginx <nginx port> <Keycloak port>: nginx in front of Keycloak, its own prefix under $WORK/nginx.
start_nginx() {
  local port="$1" upstream="$2" dir="$WORK/nginx"
  mkdir -p "$dir/logs" "$dir/tmp"
  cat > "$dir/nginx.conf" <<CONF
worker_processes auto;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $dir/tmp/body;
  proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi;
  scgi_temp_path $dir/tmp/scgi;
  # Every client of the benchmark connects from 127.0.0.1; the driver names its address in X-Forwarded-For.
  set_real_ip_from 127.0.0.1;
  real_ip_header X-Forwarded-For;
  limit_req_zone \$binary_remote_addr zone=login:10m rate=$NGINX_RATE;
  limit_req_status 429;
  upstream keycloak { server 127.0.0.1:$upstream; keepalive 64; }
  server {
    listen 127.0.0.1:$port;
    proxy_http_version 1.1;
    proxy_set_header Connection "";
    proxy_set_header Host \$http_host;
    proxy_set_header X-Forwarded-For \$remote_addr;
    proxy_set_header X-Forwarded-Proto \$scheme;
    proxy_set_header X-Forwarded-Host \$host;
    proxy_set_header X-Forwarded-Port \$server_port;
    proxy_buffer_size 16k;
    proxy_buffers 8 16k;
    # The password checks: the password grant and the login form's POST.
    location ~ ^/realms/[^/]+/(protocol/openid-connect/token|login-actions/authenticate)\$ {
      limit_req zone=login burst=$NGINX_BURST nodelay;
      proxy_pass http://keycloak;
    }
    location / { proxy_pass http://keycloak; }
  }
}
CONF
  "$NGINX_BIN" -p "$dir" -c "$dir/nginx.conf" -g 'daemon off;' > "$dir/logs/stdout.log" 2>&1 &
  NGINX_PID=$!
  for _ in $(seq 1 50); do
    curl -sf -o /dev/null "http://127.0.0.1:$port/realms/stock/.well-known/openid-configuration" && break
    kill -0 "$NGINX_PID" 2>/dev/null || { echo "nginx exited; see $dir/logs" >&2; cat "$dir/logs/error.log" "$dir/logs/stdout.log" >&2; exit 1; }
    sleep 0.2
  done
  NGINX_PIDS="$NGINX_PID $(pgrep -P "$NGINX_PID" | tr '\n' ' ')"
  echo "    nginx on 127.0.0.1:$port (pids $NGINX_PIDS) in front of Keycloak"
}

# DB=postgres: Debian's PostgreSQL server binaries (apt-get install postgresql when missing and this runs as root),
# one cluster under $WORK/postgres on a free port of 127.0.0.1, run as the postgres user when this runs as root
# (initdb refuses root). Each run gets a fresh database in it.
start_postgres() {
  PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
  if [ -z "$PG_BIN" ] && [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
    echo "==> Installing Debian's postgresql (apt-get) for DB=postgres"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q postgresql > "$WORK/postgres-install.log" 2>&1 || true
    PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
  fi
  [ -x "$PG_BIN/initdb" ] || { echo "DB=postgres: no PostgreSQL server binaries under /usr/lib/postgresql" >&2; exit 1; }
  PG_DIR="$WORK/postgres"
  PG_PORT=$(free_port)
  mkdir -p "$PG_DIR"
  if [ "$(id -u)" = 0 ]; then chown postgres "$PG_DIR"; fi
  as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U keycloak --auth=trust > "$WORK/postgres-initdb.log" 2>&1
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
    -o "-h 127.0.0.1 -p $PG_PORT -k $PG_DIR -c max_connections=200" start > /dev/null
  export DB_NOTE="PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') (Debian's, $PG_BIN), one cluster under the raw output's postgres/, default settings but max_connections=200, a fresh database per run"
  echo "    PostgreSQL on 127.0.0.1:$PG_PORT ($PG_DIR)"
}
# fresh_database: drops and creates the keycloak database (DB=postgres).
fresh_database() {
  PGOPTIONS="-c client_min_messages=warning" as_pg "$PG_BIN/psql" -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$PG_PORT" -U keycloak -d postgres \
    -c "DROP DATABASE IF EXISTS keycloak" -c "CREATE DATABASE keycloak" > /dev/null
}
DB_ARGS=()
if [ "$DB" = postgres ]; then
  start_postgres
  DB_ARGS=(--db-url="jdbc:postgresql://127.0.0.1:$PG_PORT/keycloak" --db-username=keycloak --db-password=unused)
else
  export DB_NOTE="dev-file (H2 in Keycloak's data/, a fresh one per run)"
fi

# Production mode (theme and template caches on), LOCAL caches and the database DB names, as benchmarks/load.
echo "==> Installing the provider"
rm -f "$KC_HOME"/providers/keycloak-abuse-gate-*.jar
cp "$ROOT"/providers/keycloak-abuse-gate-*.jar "$KC_HOME/providers/"
wait_for_quiet_to_end
# Metrics on: the driver reads abuse_gate_edge_refusals_total, the attempts answered before Keycloak's flow.
echo "==> kc.sh build (--cache=local, $DB database, metrics)"
"$KC_HOME/bin/kc.sh" build --cache=local --db="$DB" --metrics-enabled=true > "$WORK/keycloak-build.log" 2>&1

# start_keycloak <run>: a fresh database (or data/) with the realms, and Keycloak on free ports; sets KC_PID, JAVA_PID,
# HTTP_PORT, MGMT_PORT, HTTPS_PORT.
start_keycloak() {
  local run="$1" i
  rm -rf "$KC_HOME/data" && mkdir -p "$KC_HOME/data/import"
  if [ "$DB" = postgres ]; then fresh_database; fi
  java -cp "$TARGET/classes" dev.abusegate.benchmarks.attack.Realms "$KC_HOME/data/import" "$USERS"
  HTTP_PORT=$(free_port)
  MGMT_PORT=$(free_port "$HTTP_PORT")
  HTTPS_PORT=$(free_port "$HTTP_PORT" "$MGMT_PORT")
  wait_for_quiet_to_end
  echo "==> Starting Keycloak $KEYCLOAK_VERSION on 127.0.0.1:$HTTP_PORT (log: $WORK/keycloak-run$run.log)"
  KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=admin \
    "$KC_HOME/bin/kc.sh" start --optimized --import-realm \
    --http-enabled=true --http-host=127.0.0.1 --http-port="$HTTP_PORT" --https-port="$HTTPS_PORT" \
    --http-management-port="$MGMT_PORT" --hostname-strict=false "${DB_ARGS[@]}" \
    --proxy-headers=xforwarded --proxy-trusted-addresses=127.0.0.1 \
    > "$WORK/keycloak-run$run.log" 2>&1 &
  KC_PID=$!
  echo -n "    waiting for the realms"
  for i in $(seq 1 600); do
    kill -0 "$KC_PID" 2>/dev/null || { echo; echo "Keycloak exited; see $WORK/keycloak-run$run.log" >&2; tail -30 "$WORK/keycloak-run$run.log" >&2; exit 1; }
    if curl -sf -o /dev/null "http://127.0.0.1:$HTTP_PORT/realms/gated/.well-known/openid-configuration" \
      && curl -sf -o /dev/null "http://127.0.0.1:$HTTP_PORT/realms/stock/.well-known/openid-configuration" \
      && curl -sf -o /dev/null "http://127.0.0.1:$HTTP_PORT/realms/shielded/.well-known/openid-configuration"; then break; fi
    sleep 1; [ $((i % 10)) = 0 ] && echo -n "."
  done
  echo
  JAVA_PID=$(jvm_pid "$KC_PID")
  echo "    Keycloak JVM pid $JAVA_PID"
}

for run in $(seq 1 "$RUNS"); do
  echo "==> Run $run of $RUNS: the realms stock, gated and shielded ($USERS users each; fresh database)"
  draws=""
  for draw in $(seq 1 "$START_DRAWS"); do
    start_keycloak "$run"
    cost=$(admin_login_cost "$HTTP_PORT" "$JAVA_PID")
    draws="$draws${draws:+, }$cost ms"
    echo "    start $draw: $cost ms of Keycloak's CPU per login of the bootstrap admin"
    if [ "$LOGIN_CPU_MAX_MS" = 0 ] || [ "$cost" -le "$LOGIN_CPU_MAX_MS" ] || [ "$draw" = "$START_DRAWS" ]; then break; fi
    echo "    over LOGIN_CPU_MAX_MS=$LOGIN_CPU_MAX_MS: a slow draw of the password hash; starting Keycloak again"
    stop_pid "$KC_PID" Keycloak; KC_PID=""
    mv "$WORK/keycloak-run$run.log" "$WORK/keycloak-run$run-start$draw.log"
  done
  verdict="kept"
  if [ "$LOGIN_CPU_MAX_MS" != 0 ] && [ "$cost" -gt "$LOGIN_CPU_MAX_MS" ]; then verdict="kept although over the limit: no start left"; fi
  export START_NOTE="Keycloak's CPU per login of the bootstrap admin (100 password grants after 100), per start: $draws; the last $verdict (LOGIN_CPU_MAX_MS=$LOGIN_CPU_MAX_MS, START_DRAWS=$START_DRAWS)"
  NGINX_ARGS=()
  if nginx_row; then
    NGINX_PORT=$(free_port "$HTTP_PORT" "$MGMT_PORT" "$HTTPS_PORT")
    start_nginx "$NGINX_PORT" "$HTTP_PORT"
    NGINX_ARGS=(-DnginxBase="http://127.0.0.1:$NGINX_PORT" -DnginxPids="$NGINX_PIDS")
  fi

  # The driver (real users, events, CPU, table, plot) runs in this JVM; it starts the attack client in a JVM of its
  # own. After each run it writes the table and the plot of the runs so far.
  java -DclkTck="$(getconf CLK_TCK)" -Dwork="$WORK" -DkcPid="$JAVA_PID" -Dbase="http://127.0.0.1:$HTTP_PORT" \
    -Drun="$run" -Druns="$RUNS" -Dmanagement="http://127.0.0.1:$MGMT_PORT" "${NGINX_ARGS[@]}" \
    -DquietFile="$QUIET_FILE" -cp "$TARGET/classes" dev.abusegate.benchmarks.attack.AttackRun 2>&1 | tee "$WORK/driver-run$run.txt"

  stop_pid "$NGINX_PID" nginx; NGINX_PID=""
  stop_pid "$KC_PID" Keycloak; KC_PID=""
done
