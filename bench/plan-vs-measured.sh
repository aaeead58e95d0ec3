#!/usr/bin/env bash
# jccl plan against measured allreduces on the network-namespace cluster (see README "A cluster of
# network namespaces"): per case, every host link is shaped by tc tbf, 2 ranks per host run
# allreduces under jccl launch with JCCL_ALGO forced, and the table gives predicted (the planner,
# same hosts x ranks and algorithm, over a link calibrated for a tbf-shaped veth) against measured
# time per size, with the ratio. Target: within 20% from 1 MiB up.
#
# Usage: bench/plan-vs-measured.sh [HOSTS:RATE:ALGO:MAXSIZE[:DELAY] ...]
#   default: 2 hosts at 1gbit and 200mbit, ring and hierarchical; 2 hosts at 1gbit with 1 ms and 5 ms
#   added through a delay proxy in the router (every tcp data connection relayed, JCCL_TCP_ADVERTISE);
#   then 4 hosts at 1gbit and 200mbit. Under each case's rows: tc counters of every link, TCP retransmits and
#   timeouts per host, the proxy's byte count. The 11 default cases take about 10 minutes on a 2-core machine.
#   PLAN_ALPHA (default 600us): the per-step latency the planner is given (see the table's header).
#   PLAN_CC: TCP congestion control in every namespace; default cubic, else reno (whichever namespaces may use), else the
#   root's. Not bbr: it paces a ring's bursty flows below the link (see PlanBenchKnobs.CONGESTION_CONTROL).
#   PLAN_ROUNDS (default 1): every case this many times on fresh clusters, then the median ratio per size.
#   PLAN_RANK_ENV / PLAN_RANK_JVM: space-separated K=V for every rank's environment / options for its JVM.
#   Needs root, ip, tc, nft (skips with one line otherwise); about 1 minute per case on 2 cores.
# JCCL_BENCH_LOCK=FILE: runs under flock FILE, so benchmarks sharing a host do not overlap their timings.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
. scripts/find-jdk25.sh
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(2:1gbit:ring:64M 2:1gbit:hierarchical:64M 2:200mbit:ring:16M 2:200mbit:hierarchical:16M
  2:1gbit:ring:4M:1ms 2:1gbit:ring:4M:5ms 2:1gbit:hierarchical:4M:5ms 4:1gbit:ring:16M 4:1gbit:hierarchical:16M
  4:200mbit:ring:16M 4:200mbit:hierarchical:16M)
cpfile=jccl-system-tests/target/plan-vs-measured.classpath
./mvnw -B -ntp -q -o -pl jccl-system-tests -am test-compile dependency:build-classpath -DskipTests \
  -Dmdep.includeScope=test -Dmdep.outputFile="$here/$cpfile" >&2
cp="$here/jccl-system-tests/target/test-classes:$here/jccl-system-tests/target/classes:$(cat "$cpfile")"
# Bounded: a case that hangs is stopped by its launcher's --timeout; this is the backstop for all of them.
# The lock is taken first, so waiting for another benchmark does not eat into the backstop.
run=(timeout --kill-after=30s $((300 * ${#cases[@]} * ${PLAN_ROUNDS:-1} + 60))s "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -XX:+UseSerialGC
  -Djccl.plan.alpha="${PLAN_ALPHA:-600us}" -Djccl.plan.cc="${PLAN_CC:-}"
  -Djccl.plan.rounds="${PLAN_ROUNDS:-1}" -Djccl.plan.rank-env="${PLAN_RANK_ENV:-}" -Djccl.plan.rank-jvm="${PLAN_RANK_JVM:-}" -cp "$cp" dev.jccl.netns.PlanVsMeasured "${cases[@]}")
[ -n "${JCCL_BENCH_LOCK:-}" ] && run=(flock "$JCCL_BENCH_LOCK" "${run[@]}")
exec "${run[@]}"
