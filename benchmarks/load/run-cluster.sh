#!/usr/bin/env bash
# Load benchmark on a Keycloak 26.7.3 cluster: NODES nodes (default 3) in production mode sharing one
# PostgreSQL, clustered with the jdbc-ping stack, the gate's flows and the stock flow side by side.
#
#   benchmarks/load/run-cluster.sh         build, start PostgreSQL and the nodes, drive load, print the tables
#   NODES=3 ...                            cluster size (default 3)
#   ROUNDS=5, CONCURRENCY=8 ...            as in run.sh
#   OUT=dir ...                            raw output (default benchmarks/load/target/results-cluster)
#   DRIVER_OPTS="..."                      default: -Dwarmup=4 -DblockN=900 -DverifyN=60 -DlatencyN=100 -DseqN=200
#   HEAP="-Xms256m -Xmx1g"                 heap of each node (JAVA_OPTS_KC_HEAP)
#   JFR=1 ...                              record every node with JFR (settings=profile) during the load: $OUT/node-N.jfr
#   KC_OPTS="..."                          more options for every node's kc.sh start, e.g.
#                                          --spi-abuse-gate-store--infinispan--blocked-hold-millis=0
#
# The load driver sends attempt i to node i mod NODES; the GET and the POST of one attempt go to the same
# node (a sticky load balancer). The gate's counters live on their Infinispan owners (two of the nodes),
# so most decisions read and write across nodes.
#
# Everything listens on 127.0.0.1 only: HTTP, management, JGroups (--cache-embedded-network-bind-address)
# and PostgreSQL (listen_addresses=127.0.0.1). The script checks that every node saw a cluster view of
# NODES members and that no process it started listens on another address. PostgreSQL comes from the OS
# (Debian: apt-get install -y postgresql; its service is never started): initdb into a temp directory,
# pg_ctl on a free port, as the postgres OS user when run as root. On exit the nodes and PostgreSQL are
# stopped by their pids and the database directory is deleted.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
NODES="${NODES:-3}"
OUT="${OUT:-$TARGET/results-cluster}"
HEAP="${HEAP:--Xms256m -Xmx1g}"
DRIVER_OPTS="${DRIVER_OPTS:--Dwarmup=4 -DblockN=900 -DverifyN=60 -DlatencyN=100 -DseqN=200}"
CLUSTER_DIR="$TARGET/cluster"
mkdir -p "$TARGET" "$OUT"
cd "$ROOT"

# --------------------------------------------------------------------------- PostgreSQL (OS binaries)
PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$PG_BIN/initdb" ] || { echo "PostgreSQL is not installed (no initdb): apt-get install -y postgresql" >&2; exit 1; }
PG_DIR=""
PG_PORT=""
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
start_postgres() {
  PG_DIR=$(mktemp -d /tmp/abuse-gate-bench-pg-XXXXXX)
  PG_PORT=$(free_port)
  (umask 077 && echo "$DB_PASSWORD" > "$PG_DIR/superuser-password")
  if [ "$(id -u)" = 0 ]; then chown -R postgres:postgres "$PG_DIR"; fi
  as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    --pwfile="$PG_DIR/superuser-password" -E UTF8 --locale=C --no-sync > "$OUT/postgres-initdb.log" 2>&1
  rm -f "$PG_DIR/superuser-password"
  as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" -w -t 60 \
    -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=off" start > /dev/null
  psql_su "CREATE ROLE keycloak LOGIN PASSWORD '$DB_PASSWORD'"
  psql_su "CREATE DATABASE keycloak OWNER keycloak"
  echo "    PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT (postmaster pid $(postmaster_pid))"
}
psql_su() { as_pg "$PG_BIN/psql" -h "$PG_DIR" -p "$PG_PORT" -U postgres -d postgres -v ON_ERROR_STOP=1 -Atq -c "$1"; }
postmaster_pid() { head -1 "$PG_DIR/data/postmaster.pid" 2>/dev/null || true; }
stop_postgres() {
  [ -n "$PG_DIR" ] || return 0
  local pid
  pid=$(postmaster_pid)
  # SIGINT = PostgreSQL's "fast" shutdown, sent to the postmaster this script started
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    echo "==> Stopping PostgreSQL (pid $pid)"
    kill -INT "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  fi
  rm -rf "$PG_DIR"
}

# --------------------------------------------------------------------------- the nodes
SCRIPT_PIDS=()
JAVA_PIDS=()
cleanup() {
  local i
  for i in "${!SCRIPT_PIDS[@]}"; do stop_pid "${SCRIPT_PIDS[$i]}" "node $((i + 1))"; done
  for i in "${!JAVA_PIDS[@]}"; do stop_pid "${JAVA_PIDS[$i]}" "node $((i + 1)) JVM"; done
  stop_postgres
}
trap cleanup EXIT INT TERM

prepare_jar_dist_and_driver
machine_info | tee "$OUT/machine.txt"
echo "nodes: $NODES, heap per node: $HEAP" | tee -a "$OUT/machine.txt"

echo "==> Starting a throw-away PostgreSQL"
DB_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr -dc 'A-Za-z0-9')
start_postgres

# Each node gets its own home (kc.sh finds its home from its own path; data/ holds per-node transaction logs
# and temp files): a copy of the distribution with the read-only lib/lib (most of its size) linked.
echo "==> Preparing $NODES Keycloak homes in $CLUSTER_DIR"
rm -rf "$CLUSTER_DIR" && mkdir -p "$CLUSTER_DIR/node-1/lib"
(cd "$KC_HOME" && find . -mindepth 1 -maxdepth 1 ! -name lib ! -name data -exec cp -a {} "$CLUSTER_DIR/node-1/" \;)
(cd "$KC_HOME/lib" && find . -mindepth 1 -maxdepth 1 ! -name lib -exec cp -a {} "$CLUSTER_DIR/node-1/lib/" \;)
ln -s "$KC_HOME/lib/lib" "$CLUSTER_DIR/node-1/lib/lib"
install_provider_and_realm "$CLUSTER_DIR/node-1"
# The options every cluster node of this project runs with (also read by docker-compose.cluster.yml and
# ClusterIT): cache=ispn, cache-stack=jdbc-ping, db=postgres, http, proxy headers, health, metrics.
set -a; . "$ROOT/cluster/keycloak.env"; set +a
echo "    shared options: $(grep -v '^#' "$ROOT/cluster/keycloak.env" | grep . | tr '\n' ' ')" | tee -a "$OUT/machine.txt"
echo "==> kc.sh build (once, copied to every node)"
"$CLUSTER_DIR/node-1/bin/kc.sh" build > "$OUT/keycloak-build.log" 2>&1
for n in $(seq 2 "$NODES"); do
  cp -a "$CLUSTER_DIR/node-1" "$CLUSTER_DIR/node-$n"
  rm -rf "$CLUSTER_DIR/node-$n/data/import"
done

export KC_DB_URL="jdbc:postgresql://127.0.0.1:$PG_PORT/keycloak"
export KC_DB_USERNAME=keycloak
export KC_DB_PASSWORD="$DB_PASSWORD"
export JAVA_OPTS_KC_HEAP="$HEAP"
USED_PORTS="$PG_PORT"
BASES=()
start_node() {
  local n="$1" http mgmt https jg
  http=$(free_port $USED_PORTS); USED_PORTS="$USED_PORTS $http"
  mgmt=$(free_port $USED_PORTS); USED_PORTS="$USED_PORTS $mgmt"
  https=$(free_port $USED_PORTS); USED_PORTS="$USED_PORTS $https"
  jg=$(free_port $USED_PORTS); USED_PORTS="$USED_PORTS $jg"
  local extra=()
  [ "$n" = 1 ] && extra=(--import-realm)
  echo "==> Starting node $n: HTTP 127.0.0.1:$http, management $mgmt, JGroups 127.0.0.1:$jg"
  # shellcheck disable=SC2086  # KC_OPTS: options separated by spaces
  "$CLUSTER_DIR/node-$n/bin/kc.sh" start --optimized "${extra[@]}" ${KC_OPTS:-} \
    --http-host=127.0.0.1 --http-port="$http" --https-port="$https" --http-management-port="$mgmt" \
    --cache-embedded-network-bind-address=127.0.0.1 --cache-embedded-network-bind-port="$jg" \
    > "$OUT/keycloak-node-$n.log" 2>&1 &
  SCRIPT_PIDS[$((n - 1))]=$!
  BASES[$((n - 1))]="http://127.0.0.1:$http"
}
wait_node() {
  local n="$1" port="${BASES[$(($1 - 1))]##*:}"
  echo -n "    waiting for node $n"
  wait_for_realm "${SCRIPT_PIDS[$((n - 1))]}" "$port" "$OUT/keycloak-node-$n.log"
  echo
  JAVA_PIDS[$((n - 1))]=$(jvm_pid "${SCRIPT_PIDS[$((n - 1))]}")
  echo "    node $n ready, JVM pid ${JAVA_PIDS[$((n - 1))]}"
}

# The first node creates the schema and imports the realm; the others join once it is up.
start_node 1
wait_node 1
for n in $(seq 2 "$NODES"); do start_node "$n"; done
for n in $(seq 2 "$NODES"); do wait_node "$n"; done

# Every node must have seen a view of NODES members (ISPN000094 ... (N)), as its latest view.
echo -n "==> Waiting for a cluster view of $NODES members on every node"
VIEW='ISPN000094: Received new cluster view for channel'
for i in $(seq 1 120); do
  ok=1
  for n in $(seq 1 "$NODES"); do
    # "... ISPN000094: Received new cluster view for channel ISPN: [coordinator|view id] (members) [member, ...]"
    last=$(grep "$VIEW" "$OUT/keycloak-node-$n.log" | tail -1 | sed -n 's/.*ISPN: \[[^]]*\] (\([0-9]*\)).*/\1/p')
    [ "$last" = "$NODES" ] || ok=0
  done
  [ "$ok" = 1 ] && break
  [ "$i" = 120 ] && { echo; echo "no cluster of $NODES members within 120 s; views:" >&2; grep -h "$VIEW" "$OUT"/keycloak-node-*.log >&2; exit 1; }
  sleep 1
done
echo
for n in $(seq 1 "$NODES"); do
  echo "node $n cluster view: $(grep "$VIEW" "$OUT/keycloak-node-$n.log" | tail -1 | sed 's/.*\(ISPN000094\)/\1/')"
done | tee -a "$OUT/machine.txt"

# Nothing this script started may listen anywhere but 127.0.0.1.
PIDS_RE=$(echo "${JAVA_PIDS[*]} $(postmaster_pid)" | tr ' ' '|')
LISTEN=$(ss -Htlnup 2>/dev/null | grep -E "pid=($PIDS_RE)," || true)
if echo "$LISTEN" | awk '{print $5}' | grep -vE '^(127\.0\.0\.1|\[::ffff:127\.0\.0\.1\]):' | grep -q .; then
  echo "a process of this benchmark listens outside 127.0.0.1:" >&2; echo "$LISTEN" >&2; exit 1
fi
echo "listening sockets of the nodes and PostgreSQL: $(echo "$LISTEN" | awk '{print $1 " " $5}' | sort -u | tr '\n' ' ')" \
  | tee -a "$OUT/machine.txt"

echo "uptime before load: $(uptime)" | tee -a "$OUT/machine.txt"
[ -z "${KC_OPTS:-}" ] || echo "more node options (KC_OPTS): $KC_OPTS" | tee -a "$OUT/machine.txt"
if [ "${JFR:-0}" = "1" ]; then
  for n in $(seq 1 "$NODES"); do
    jcmd "${JAVA_PIDS[$((n - 1))]}" JFR.start name=bench settings=profile filename="$OUT/node-$n.jfr" > /dev/null
  done
fi
run_driver "$(IFS=,; echo "${BASES[*]}")" "$(IFS=,; echo "${JAVA_PIDS[*]}")" "$OUT/load.txt"
echo "uptime after load: $(uptime)" | tee -a "$OUT/machine.txt"
if [ "${JFR:-0}" = "1" ]; then
  for n in $(seq 1 "$NODES"); do
    jcmd "${JAVA_PIDS[$((n - 1))]}" JFR.stop name=bench > /dev/null && echo "JFR recording: $OUT/node-$n.jfr"
  done
fi
for n in $(seq 1 "$NODES"); do
  echo "node $n: $(grep -o "Abuse gate: cache 'abuse-gate-counters' ([^)]*)" "$OUT/keycloak-node-$n.log" | head -1)"
done | tee -a "$OUT/machine.txt"
