#!/usr/bin/env bash
# jccl plan against measured allreduces on the network-namespace cluster (see README "A cluster of
# network namespaces"): per case, every host link is shaped by tc tbf, 2 ranks per host run
# allreduces under jccl launch with JCCL_ALGO forced, and the table gives predicted (the planner,
# same hosts x ranks and algorithm, over a link calibrated for a tbf-shaped veth) against measured
# time per size, with the ratio. Target: within 20% from 1 MiB up.
#
# Usage: bench/plan-vs-measured.sh [HOSTS:RATE:ALGO:MAXSIZE ...]
#   default: 2 hosts at 1gbit and 200mbit, ring and hierarchical; then 4 hosts at 1gbit.
#   PLAN_ALPHA (default 600us): the per-step latency the planner is given (see the table's header).
#   Needs root, ip, tc, nft (skips with one line otherwise); about 1 minute per case on 2 cores.
# Runs under flock /work/bench.lock when that file's folder exists, so timings do not overlap.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
. scripts/find-jdk25.sh
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(2:1gbit:ring:64M 2:1gbit:hierarchical:64M 2:200mbit:ring:16M 2:200mbit:hierarchical:16M
  4:1gbit:ring:16M 4:1gbit:hierarchical:16M)
cpfile=jccl-system-tests/target/plan-vs-measured.classpath
./mvnw -B -ntp -q -o -pl jccl-system-tests -am test-compile dependency:build-classpath -DskipTests \
  -Dmdep.includeScope=test -Dmdep.outputFile="$here/$cpfile" >/dev/null
cp="$here/jccl-system-tests/target/test-classes:$here/jccl-system-tests/target/classes:$(cat "$cpfile")"
run=("$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -XX:+UseSerialGC
  -Djccl.plan.alpha="${PLAN_ALPHA:-600us}" -cp "$cp" dev.jccl.netns.PlanVsMeasured "${cases[@]}")
[ -d /work ] && run=(flock /work/bench.lock "${run[@]}")
# Bounded: a case that hangs is stopped by its launcher's --timeout; this is the backstop for all of them.
exec timeout --kill-after=30s $((300 * ${#cases[@]} + 60))s "${run[@]}"
