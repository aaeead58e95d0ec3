#!/usr/bin/env bash
# The network-namespace cluster's scenario table: runs the scenario tests (2 hosts x 2 ranks as
# network namespaces on this machine; see README "A cluster of network namespaces") and prints one
# row per scenario with what it measured: busbw against shaping and loss, and how long after a
# fault every rank had failed.
#
# Usage: bench/netns-cluster.sh          (needs root, ip, tc, nft; about 3-4 minutes on 2 cores)
# JCCL_BENCH_LOCK=FILE: runs under flock FILE, so benchmarks sharing a host do not overlap their timings.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
. scripts/find-jdk25.sh
tests='NetnsClusterTest,CrossHostCorrectnessTest,LinkShapingTest,HostFaultTest'
run=(./mvnw -q -o -pl jccl-system-tests -am test -Dtest="$tests" -Dsurefire.failIfNoSpecifiedTests=false)
[ -n "${JCCL_BENCH_LOCK:-}" ] && run=(flock "$JCCL_BENCH_LOCK" "${run[@]}")
trim() { sed 's/^ *//; s/ *$//'; }
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
"${run[@]}" >"$log" 2>&1 || status=$?
reports=jccl-system-tests/target/surefire-reports
if grep -qh "SKIPPING network-namespace cluster tests" "$reports"/*netns*-output.txt 2>/dev/null; then
  grep -h "SKIPPING network-namespace cluster tests" "$reports"/*netns*-output.txt | head -1
  exit 1
fi
printf '| %-52s | %-62s | %s\n' "scenario" "outcome" "measured"
printf '|%s|%s|%s\n' "$(printf -- '-%.0s' {1..54})" "$(printf -- '-%.0s' {1..64})" "-------"
for f in NetnsClusterTest CrossHostCorrectnessTest LinkShapingTest HostFaultTest; do
  grep -h '^SCENARIO | ' "$reports/dev.jccl.netns.$f-output.txt" 2>/dev/null | while IFS='|' read -r _ name outcome figures; do
    printf '| %-52s | %-62s | %s\n' "$(trim <<<"$name")" "$(trim <<<"$outcome")" "$(trim <<<"$figures")"
  done
done
if [ "$status" -ne 0 ]; then
  echo "some scenario tests failed (exit $status); their output is in $reports" >&2
  grep -E '^\[ERROR\] +[A-Za-z]+Test\.' "$log" | head -20 >&2 || true
fi
exit "$status"
