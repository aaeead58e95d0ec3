#!/usr/bin/env bash
# Point-to-point figures side by side, interleaved, medians of several runs:
#   write_bw over shm at 4 MiB and 64 MiB   vs  MemorySegment.copy of the same size (one process)
#   send_bw over shm at 64 KiB              (two-sided streaming, receives reposted as they complete)
#   write_bw over tcp loopback (1 socket)   vs  iperf3 on loopback (1 stream)
#   write_lat 8 B over shm, and over tcp    vs  a plain Java socket ping-pong (bench/SocketPingPong.java)
# Usage: bench/p2p-vs-baselines.sh [ROUNDS]   (default 5). Needs iperf3 for the tcp row:
#   apt-get install iperf3
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-jdk25.sh"
rounds="${1:-5}"
jccl="$here/jccl"
"$jccl" --version >/dev/null   # build once, outside the timings

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "n/a"; else if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }
bw_avg() { awk '/^\[0\] +[0-9]+ +[0-9]+ /{print $5}' | tail -1; }
lat_typ() { awk '/^\[0\] +[0-9]+ +[0-9]+ /{print $6}' | tail -1; }

declare -A r
for ((i = 1; i <= rounds; i++)); do
  for size in 4194304 67108864; do
    iters=$(( size > 8388608 ? 40 : 400 ))
    r[shm_$size]+="$("$jccl" perf write_bw -p shm -s "$size" -n "$iters" | bw_avg) "
    r[copy_$size]+="$("$JAVA_HOME/bin/java" "$here/bench/MemcpyBw.java" "$size" "$iters" | awk '{print $3}') "
  done
  r[send_shm_64K]+="$("$jccl" perf send_bw -p shm -s 64K -n 20000 | bw_avg) "
  r[tcp_64M]+="$("$jccl" perf write_bw -p tcp -s 64M -n 40 | bw_avg) "
  if command -v iperf3 >/dev/null; then
    iperf3 -s -1 -B 127.0.0.1 -p 5299 >/dev/null 2>&1 &
    sleep 0.5
    r[iperf]+="$(iperf3 -c 127.0.0.1 -p 5299 -t 3 -J | awk -F: '/"bits_per_second"/{v=$2} END{gsub(/[ ,]/,"",v); printf "%.2f", v/8/1e6}') "
    wait || true
  fi
  r[lat_shm]+="$("$jccl" perf write_lat -p shm -s 8 -n 20000 | lat_typ) "
  r[lat_tcp]+="$("$jccl" perf write_lat -p tcp -s 8 -n 20000 | lat_typ) "
  r[pingpong]+="$("$JAVA_HOME/bin/java" "$here/bench/SocketPingPong.java" 8 20000 | awk '{print $3}') "
done

m() { echo "${r[$1]:-}" | tr ' ' '\n' | grep -v '^$' | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (b+0 > 0) printf "%.2f", a/b; else print "n/a" }'; }
echo "medians of $rounds interleaved rounds (MB/s = 10^6 bytes/s)"
printf "%-34s %12s %12s %8s\n" "figure" "jccl" "baseline" "ratio"
for size in 4194304 67108864; do
  printf "%-34s %12s %12s %8s\n" "write_bw shm $((size >> 20)) MiB vs memcpy" "$(m shm_$size)" "$(m copy_$size)" "$(ratio "$(m shm_$size)" "$(m copy_$size)")"
done
printf "%-34s %12s\n" "send_bw shm 64 KiB" "$(m send_shm_64K)"
printf "%-34s %12s %12s %8s\n" "write_bw tcp 64 MiB vs iperf3" "$(m tcp_64M)" "$(m iperf)" "$(ratio "$(m tcp_64M)" "$(m iperf)")"
printf "%-34s %12s\n" "write_lat shm 8 B t_typical (us)" "$(m lat_shm)"
printf "%-34s %12s %12s %8s\n" "write_lat tcp 8 B vs socket (us)" "$(m lat_tcp)" "$(m pingpong)" "$(ratio "$(m lat_tcp)" "$(m pingpong)")"
