#!/usr/bin/env bash
# Where a `jccl perf` run spends its CPU: async-profiler (fetched from Maven Central on first use,
# into bench/.build) runs in every rank JVM through JCCL_JAVA_OPTS, CPU mode, and the script prints
# for one rank's calling thread the share in the kernel, the top frames by self time and the jccl
# frames by inclusive time. The collapsed stacks stay in bench/.build/profile/ (one file a JVM) for
# a flame graph or a closer look.
#
# Usage: bench/profile-perf.sh [jccl perf allreduce options]   (default: -N 2 -p shm -b 8 -e 8)
#   e.g. bench/profile-perf.sh -N 2 -p tcp -b 8 -e 8
# The profiler slows the run (a sample every PROFILE_INTERVAL, default 200us): read shares, not times.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-jdk25.sh"
version="${ASYNC_PROFILER_VERSION:-4.5}"
case "$(uname -m)" in
  x86_64) platform=linux-x64 ;;
  aarch64) platform=linux-arm64 ;;
  *) echo "profile-perf: no async-profiler build for $(uname -m)" >&2; exit 2 ;;
esac
tools="$here/bench/.build/async-profiler-$version"
lib="$tools/$platform/libasyncProfiler.so"
if [ ! -f "$lib" ]; then
  mkdir -p "$tools"
  (cd "$here" && ./mvnw -q -B dependency:copy -Dartifact="tools.profiler:async-profiler:$version:jar:$platform" \
    -DoutputDirectory="$tools" -Dmdep.stripVersion=true)
  (cd "$tools" && "$JAVA_HOME/bin/jar" xf "async-profiler-$platform.jar" "$platform/libasyncProfiler.so")
fi
out="$here/bench/.build/profile"
rm -rf "$out"
mkdir -p "$out"
args=("$@")
if [ ${#args[@]} -eq 0 ]; then args=(-N 2 -p shm -b 8 -e 8); fi
agent="-agentpath:$lib=start,event=cpu,interval=${PROFILE_INTERVAL:-200us},threads,collapsed,file=$out/jvm-%p.collapsed"
JCCL_JAVA_OPTS="$agent ${JCCL_JAVA_OPTS:-}" "$here/jccl" perf allreduce "${args[@]}" -n 20 -w 5 -z 1 -c 0 \
  --batches 500 --batch-time 10ms --jit-warmup 5s | grep -E '^\[0\] +[0-9]+ ' || true
# The rank JVMs have a calling thread named main whose stacks pass through the batches of calls; the
# launcher's does not. Of those, take the first (rank order is not known from the file).
rank=""
for f in "$out"/jvm-*.collapsed; do
  if grep -q '^\[main[^;]*;.*CollRunner.batch' "$f"; then rank="$f"; break; fi
done
[ -n "$rank" ] || { echo "profile-perf: no rank's profile found in $out" >&2; exit 1; }
echo "profile of one rank's calling thread, in its batches of calls (warm-up and timed; $rank):"
# One line per frame: kind, share of the thread's samples, frame; sorted by share within each kind.
summary="$out/summary.txt"
awk '
  $0 !~ /^\[main/ || $0 !~ /CollRunner\.batch/ { next }
  {
    n = $NF; stack = substr($0, 1, length($0) - length(n) - 1)
    k = split(stack, fr, ";"); total += n; self[fr[k]] += n
    if (fr[k] ~ /_\[k\]$/) kernel += n
    split("", seen)
    for (i = 2; i <= k; i++) if (fr[i] ~ /^dev\/jccl/ && !(fr[i] in seen)) { seen[fr[i]] = 1; incl[fr[i]] += n }
  }
  END {
    if (total == 0) exit 1
    printf "0 %d samples, %.1f%% of them in the kernel\n", total, 100 * kernel / total
    for (f in self) printf "1 %.1f %s\n", 100 * self[f] / total, f
    for (f in incl) printf "2 %.1f %s\n", 100 * incl[f] / total, f
  }' "$rank" > "$summary" || { echo "  no samples in the timed loop" >&2; exit 1; }
grep '^0 ' "$summary" | cut -d' ' -f2- | sed 's/^/  /'
echo "  top frames by self time:"
grep '^1 ' "$summary" | sort -k2,2nr | head -15 | awk '{printf "  %6.1f%%  %s\n", $2, $3}'
echo "  jccl frames by inclusive time:"
grep '^2 ' "$summary" | sort -k2,2nr | head -25 | awk '{printf "  %6.1f%%  %s\n", $2, $3}'
