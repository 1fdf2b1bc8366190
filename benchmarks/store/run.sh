#!/usr/bin/env bash
# Counter-store benchmarks on a LOCAL embedded Infinispan 16.0.14 cache configured like the provider's:
#   (d) JMH: InfinispanCounterStore operations/s, 1 and 2 threads
#   (e) heap bytes per tracked key
#
#   benchmarks/store/run.sh                 both; raw output in benchmarks/store/target/results/
#   JMH_ARGS="-wi 8 -i 5" ...               extra JMH arguments (default: -wi 8, see below)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/benchmarks/store"
OUT="${OUT:-$HERE/target/results}"
mkdir -p "$OUT"
cd "$ROOT"
# ./mvnw or a system mvn, the same thing
MVN=./mvnw
"$MVN" -B -q -f benchmarks/store/pom.xml -DskipTests package
CP="$HERE/target/classes:$(cat "$HERE/target/classpath.txt")"
{
  echo "nproc: $(nproc); $(free -m | awk '/Mem:/ {print $2 " MiB"}'); $(java -version 2>&1 | head -1)"
  echo "uptime before: $(uptime)"
} | tee "$OUT/store-machine.txt"
echo "==> correctness of the distinct sets against a model (StoreCheck)"
java -cp "$CP" dev.abusegate.bench.store.StoreCheck 2>&1 | grep -v "ISPN000714\|MetricsComponentFactory" | tee "$OUT/storecheck.txt"
echo "==> ops per wall second and per CPU-second, 1 thread (StoreCpuRate)"
java -Xms1g -Xmx1g -cp "$CP" dev.abusegate.bench.store.StoreCpuRate 2>&1 | grep -v "ISPN000714\|MetricsComponentFactory" | tee "$OUT/cpurate.txt"
echo "==> JMH, 1 thread"
java -cp "$CP" org.openjdk.jmh.Main 'dev.abusegate.bench.store.CounterStoreBenchmark' -t 1 ${JMH_ARGS:--wi 8} 2>&1 \
  | grep -v "^[A-Z][a-z][a-z] [0-9]* 20[0-9][0-9] .*org.infinispan\|ISPN000714" | tee "$OUT/jmh-1thread.txt"
echo "==> JMH, 2 threads"
java -cp "$CP" org.openjdk.jmh.Main 'dev.abusegate.bench.store.CounterStoreBenchmark.(count|increment|addDistinct)' -t 2 ${JMH_ARGS:--wi 8} 2>&1 \
  | grep -v "^[A-Z][a-z][a-z] [0-9]* 20[0-9][0-9] .*org.infinispan\|ISPN000714" | tee "$OUT/jmh-2threads.txt"
echo "==> heap bytes per tracked key"
java -cp "$CP" dev.abusegate.bench.store.HeapPerKey 100000 5 2>&1 | grep -v "ISPN000714\|MetricsComponentFactory" | tee "$OUT/heap.txt"
echo "uptime after: $(uptime)" | tee -a "$OUT/store-machine.txt"
