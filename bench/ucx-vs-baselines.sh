#!/usr/bin/env bash
# The UCX provider beside jccl's own providers and UCX's own benchmark, interleaved, medians:
#   write_bw at 4 MiB and 64 MiB, write_lat at 8 B, each
#     over UCX shared memory (UCX_TLS=posix,sysv,cma,self) and UCX tcp on lo (UCX_TLS=tcp),
#     over jccl's shm and tcp providers,
#     and ucx_perftest on the same UCX transports: ucp_put_bw for bandwidth; for latency
#     ucp_am_lat (an active-message ping-pong, the nearest UCX figure to a WRITE_WITH_IMM whose
#     completion the peer polls) and ucp_put_lat (a put whose arrival the peer sees by polling memory).
# Nothing leaves loopback: UCX_NET_DEVICES=lo for every UCX run, jccl tcp binds to lo.
# Usage: bench/ucx-vs-baselines.sh [ROUNDS]   (default 3). Needs libucx0 and ucx-utils:
#   apt-get install libucx0 ucx-utils
# UCX_BASELINE_JCCL=/other/checkout/jccl adds a column: that build's UCX provider, interleaved in
#   the same rounds, with the ratio of this build to it (before/after a change, side by side).
# UCX_BENCH_SIZES="4194304" limits the bandwidth sizes (default "4194304 67108864").
# UCX_BENCH_LAT_RUNS=N runs each latency test N times per round (default 3): a latency figure is the
#   median of the typical (median) values of all rounds x N runs, so one run that went wrong (a rank
#   descheduled on a loaded machine) does not become the table's figure; the spread is printed too.
# jccl perf warms the per-message path with small messages before timing (as ucx_perftest, native
#   code, needs no compiler), so both sides measure the steady state.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-jdk25.sh"
rounds="${1:-3}"
jccl="$here/jccl"
"$jccl" --version >/dev/null   # build once, outside the timings
base="${UCX_BASELINE_JCCL:-}"
[ -z "$base" ] || "$base" --version >/dev/null
sizes="${UCX_BENCH_SIZES:-4194304 67108864}"
lat_runs="${UCX_BENCH_LAT_RUNS:-3}"
command -v ucx_perftest >/dev/null || { echo "ucx_perftest missing: apt-get install ucx-utils" >&2; exit 2; }
export UCX_NET_DEVICES=lo UCX_WARN_UNUSED_ENV_VARS=n
declare -A TLS=([ucxshm]="posix,sysv,cma,self" [ucxtcp]="tcp")

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "n/a"; else if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }
bw_avg() { awk '/^\[0\] +[0-9]+ +[0-9]+ /{print $5}' | tail -1; }
lat_typ() { awk '/^\[0\] +[0-9]+ +[0-9]+ /{print $6}' | tail -1; }
port=23456
# ucx_perftest: a server, then the client on 127.0.0.1; prints MB/s (10^6) for bw, the median us for lat.
perftest() { # TLS TEST SIZE ITERS
  port=$((port + 1))
  UCX_TLS="$1" ucx_perftest -p "$port" >/dev/null 2>&1 &
  local srv=$!
  sleep 0.5
  local line
  line="$(UCX_TLS="$1" timeout 120 ucx_perftest 127.0.0.1 -p "$port" -t "$2" -s "$3" -n "$4" 2>/dev/null | awk '/^Final:/')"
  wait "$srv" 2>/dev/null || true
  case "$2" in
    *_bw) echo "$line" | awk '{printf "%.2f", $6 * 1048576 / 1e6}' ;;
    *)    echo "$line" | awk '{print $3}' ;;
  esac
}

declare -A r
for ((i = 1; i <= rounds; i++)); do
  for size in $sizes; do
    iters=$(( size > 8388608 ? 40 : 400 ))
    for t in ucxshm ucxtcp; do
      r[${t}_$size]+="$(UCX_TLS="${TLS[$t]}" "$jccl" perf write_bw -p ucx -s "$size" -n "$iters" | bw_avg) "
      [ -z "$base" ] || r[base_${t}_$size]+="$(UCX_TLS="${TLS[$t]}" "$base" perf write_bw -p ucx -s "$size" -n "$iters" | bw_avg) "
      r[perf_${t}_$size]+="$(perftest "${TLS[$t]}" ucp_put_bw "$size" "$iters") "
    done
    r[shm_$size]+="$("$jccl" perf write_bw -p shm -s "$size" -n "$iters" | bw_avg) "
    r[tcp_$size]+="$("$jccl" perf write_bw -p tcp -s "$size" -n "$iters" | bw_avg) "
  done
  for ((j = 1; j <= lat_runs; j++)); do
    for t in ucxshm ucxtcp; do
      r[lat_$t]+="$(UCX_TLS="${TLS[$t]}" "$jccl" perf write_lat -p ucx -s 8 -n 20000 | lat_typ) "
      [ -z "$base" ] || r[base_lat_$t]+="$(UCX_TLS="${TLS[$t]}" "$base" perf write_lat -p ucx -s 8 -n 20000 | lat_typ) "
      r[amlat_$t]+="$(perftest "${TLS[$t]}" ucp_am_lat 8 20000) "
      r[putlat_$t]+="$(perftest "${TLS[$t]}" ucp_put_lat 8 20000) "
    done
    r[lat_shm]+="$("$jccl" perf write_lat -p shm -s 8 -n 20000 | lat_typ) "
    r[lat_tcp]+="$("$jccl" perf write_lat -p tcp -s 8 -n 20000 | lat_typ) "
  done
done

m() { echo "${r[$1]:-}" | tr ' ' '\n' | grep -v '^$' | median; }
# min-max of the samples behind a figure, to show a run that went wrong without letting it decide.
spread() { echo "${r[$1]:-}" | tr ' ' '\n' | grep -v '^$' | sort -g | awk 'NR==1{a=$1} {b=$1} END{if (NR) printf "%s-%s", a, b}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b+0 > 0) printf "%.2f", a/b; else print "n/a" }'; }
diff_us() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b != "n/a" && a != "n/a") printf "%+.2f", a-b; else print "n/a" }'; }
echo "medians of $rounds interleaved rounds (MB/s = 10^6 bytes/s; latency: typical us, median of $((rounds * lat_runs)) runs)"
# With a baseline: "before" is that build's UCX figure and "before/pt" its ratio (or difference) to
# ucx_perftest, beside this build's, from the same rounds.
row() { printf "%-30s %11s %11s %11s %11s %13s %7s %11s %9s\n" "$@"; }
row "figure" "jccl ucx" "jccl shm" "jccl tcp" "ucx_perftest" "perftest test" "ucx/pt" "${base:+before}" "${base:+before/pt}"
for size in $sizes; do
  mib=$((size >> 20))
  for t in ucxshm ucxtcp; do
    label=$([ "$t" = ucxshm ] && echo "UCX posix/cma" || echo "UCX tcp lo")
    own=$([ "$t" = ucxshm ] && m shm_$size || echo "")
    owntcp=$([ "$t" = ucxtcp ] && m tcp_$size || echo "")
    b=""; bpt=""
    if [ -n "$base" ]; then b="$(m base_${t}_$size)"; bpt="$(ratio "$b" "$(m perf_${t}_$size)")"; fi
    row "write_bw $mib MiB, $label" "$(m ${t}_$size)" "$own" "$owntcp" "$(m perf_${t}_$size)" "ucp_put_bw" \
      "$(ratio "$(m ${t}_$size)" "$(m perf_${t}_$size)")" "$b" "$bpt"
  done
done
for t in ucxshm ucxtcp; do
  label=$([ "$t" = ucxshm ] && echo "UCX posix/cma" || echo "UCX tcp lo")
  own=$([ "$t" = ucxshm ] && m lat_shm || echo "")
  owntcp=$([ "$t" = ucxtcp ] && m lat_tcp || echo "")
  b=""; bpt=""
  if [ -n "$base" ]; then b="$(m base_lat_$t)"; bpt="$(diff_us "$b" "$(m amlat_$t)")"; fi
  row "write_lat 8 B, $label" "$(m lat_$t)" "$own" "$owntcp" "$(m amlat_$t)" "ucp_am_lat" \
    "$(diff_us "$(m lat_$t)" "$(m amlat_$t)")" "$b" "$bpt"
  row "" "" "" "" "$(m putlat_$t)" "ucp_put_lat" "" "" ""
done
for t in ucxshm ucxtcp; do
  echo "write_lat 8 B $t runs (min-max us): jccl ucx $(spread lat_$t), ucp_am_lat $(spread amlat_$t), ucp_put_lat $(spread putlat_$t)"
done
echo "ucx/pt: bandwidth ratio to ucx_perftest, latency difference in us to ucp_am_lat (targets: >= 0.80x, <= +2.00 us)"
