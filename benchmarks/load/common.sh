# Shared by benchmarks/load/run.sh (one Keycloak), benchmarks/load/run-cluster.sh (a Keycloak cluster) and
# benchmarks/hydra/run.sh (which sets its own HERE, TARGET and KC_HOME after sourcing this).
# Sourced, not run. Everything listens on 127.0.0.1, on free ports in 20000-49999 (never 8080/9000).

KEYCLOAK_VERSION=26.7.3
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/benchmarks/load"
TARGET="$HERE/target"
KC_HOME="$TARGET/keycloak-$KEYCLOAK_VERSION"
ROUNDS="${ROUNDS:-5}"
CONCURRENCY="${CONCURRENCY:-8}"

# Builds the provider JAR and unpacks the Keycloak distribution once into $KC_HOME (under $TARGET).
prepare_jar_and_dist() {
  echo "==> Building the provider JAR"
  (cd "$ROOT" && ./mvnw -B -q -DskipTests package -pl authenticator -am)
  if [ ! -x "$KC_HOME/bin/kc.sh" ]; then
    echo "==> Unpacking org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip into $TARGET"
    (cd "$ROOT" && ./mvnw -B -q -N dependency:unpack \
      -Dartifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" \
      -DoutputDirectory="$TARGET" -Dmdep.overWriteReleases=true)
  fi
}

# prepare_jar_and_dist, then compiles the load driver.
prepare_jar_dist_and_driver() {
  prepare_jar_and_dist
  echo "==> Compiling the load driver"
  rm -rf "$TARGET/driver" && mkdir -p "$TARGET/driver"
  javac -d "$TARGET/driver" "$HERE"/src/*.java
}

# Replaces the provider JAR in a Keycloak home's providers/ and puts the bench realm into data/import (fresh data/).
install_provider_and_realm() {
  local home="$1"
  rm -f "$home"/providers/keycloak-abuse-gate-*.jar
  cp "$ROOT"/providers/keycloak-abuse-gate-*.jar "$home/providers/"
  rm -rf "$home/data"
  mkdir -p "$home/data/import"
  cp "$HERE/realm-bench.json" "$home/data/import/realm-bench.json"
}

# Prints a port of 127.0.0.1 nothing listens on, different from every port given as an argument.
free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$(( 20000 + RANDOM % 30000 ))
    case " $* " in *" $p "*) continue ;; esac
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  echo "no free port" >&2; exit 1
}

# Machine and build facts, first lines of every raw output.
machine_info() {
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  local dirty=""
  git -C "$ROOT" diff --quiet HEAD -- authenticator benchmarks 2>/dev/null || dirty=", with uncommitted changes"
  echo "git: $(git -C "$ROOT" rev-parse --short HEAD) ($(git -C "$ROOT" rev-parse --abbrev-ref HEAD)$dirty)"
  echo "nproc: $(nproc)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
  echo "memory: $(free -m | awk '/Mem:/ {print $2 " MiB total, " $7 " MiB available"}')"
  echo "java: $(java -version 2>&1 | tr '\n' ' ')"
  echo "uptime before start: $(uptime)"
}

# wait_for_realm <kc.sh pid> <http port> <log file> [realm]: until the realm (default bench) answers (at most 600 s).
wait_for_realm() {
  local pid="$1" port="$2" log="$3" realm="${4:-bench}" i
  for i in $(seq 1 600); do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo; echo "Keycloak exited; see $log" >&2; tail -30 "$log" >&2; return 1
    fi
    if curl -sf -o /dev/null "http://127.0.0.1:$port/realms/$realm/.well-known/openid-configuration"; then return 0; fi
    sleep 1; [ $((i % 10)) = 0 ] && echo -n "."
  done
  echo; echo "Keycloak not ready after 600 s; see $log" >&2; return 1
}

# jvm_pid <kc.sh pid>: kc.sh runs java as a child (and execs it on re-augmentation); prints the server JVM's pid.
jvm_pid() {
  local pid="$1" java
  if [ "$(readlink "/proc/$pid/exe" 2>/dev/null | xargs -r basename)" = "java" ]; then
    java=$pid
  else
    java=$(ps -o pid= --ppid "$pid" | head -1 | tr -d ' ')
  fi
  [ -n "$java" ] || { echo "cannot find the Keycloak JVM (child of pid $pid)" >&2; return 1; }
  echo "$java"
}

# jvm_cpu_ticks <pid>: the process's utime + stime, in clock ticks (/proc/<pid>/stat).
jvm_cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# admin_login_cost <http port> <JVM pid>: the Keycloak JVM's CPU (utime+stime, ms) per password grant of the bootstrap
# admin (admin/admin; realm master, client admin-cli: no benchmark realm, no stored event), over 100 grants after 100
# to warm up; each must answer 200. How benchmarks/attack/run.sh measures a start (its password hash's draw).
admin_login_cost() {
  local url="http://127.0.0.1:$1/realms/master/protocol/openid-connect/token" pid="$2" i code before after
  for i in $(seq 1 200); do
    [ "$i" = 101 ] && before=$(jvm_cpu_ticks "$pid")
    code=$(curl -s -o /dev/null -w '%{http_code}' -d grant_type=password -d client_id=admin-cli \
      -d username=admin -d password=admin "$url")
    [ "$code" = 200 ] || { echo "the bootstrap admin's password grant answered $code" >&2; return 1; }
  done
  after=$(jvm_cpu_ticks "$pid")
  echo $(( (after - before) * 1000 / $(getconf CLK_TCK) / 100 ))
}

# stop_pid <pid> <what>: TERM, up to 30 s, then KILL. Only the pid given.
stop_pid() {
  local pid="$1" what="$2"
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
    echo "==> Stopping $what (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
}

# run_driver <base URLs, comma-separated> <JVM pids, comma-separated> <output file>; $DRIVER_OPTS go first.
run_driver() {
  # shellcheck disable=SC2086
  java -DclkTck="$(getconf CLK_TCK)" ${DRIVER_OPTS:-} -cp "$TARGET/driver" LoadDriver "$1" "$2" "$ROUNDS" "$CONCURRENCY" \
    | tee "$3"
}
