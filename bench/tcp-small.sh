#!/usr/bin/env bash
# tcp small and mid messages, side by side and interleaved, medians of ROUNDS rounds:
#   write_lat 8 B over tcp, JCCL_TCP_INLINE=0 and 8K    vs  a plain Java socket ping-pong (SocketPingPong)
#   allreduce float32 sum, 2 ranks, 8 B - 2 KiB and 256 KiB - 8 MiB:
#     jccl over tcp as shipped (JCCL_TCP_INLINE=auto: the links complete small chunks on post), with
#     JCCL_TCP_INLINE=0 (every chunk waits for its ACK), with JCCL_TCP_SOCKET_WAIT=1 (the waiting caller sleeps on
#     its sockets), with JCCL_QPS_PER_CONNECTION=2, with JCCL_TCP_SHARED_SOCKETS=0 (a socket per direction)
#     vs Open MPI with --mca btl tcp,self --mca btl_tcp_if_include lo (when mpirun is installed)
# Usage: bench/tcp-small.sh [ROUNDS]   (default 3). On a shared host run it under flock, as JCCL_BENCH_LOCK does for the others.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-jdk25.sh"
rounds="${1:-3}"
jccl="$here/jccl"
"$jccl" --version >/dev/null   # build once, outside the timings
build="$here/bench/.build"
mkdir -p "$build"
mpi=""
if command -v mpirun >/dev/null && command -v mpicc >/dev/null; then
  mpicc -O2 -o "$build/mpi_allreduce" "$here/bench/mpi_allreduce.c"
  mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none --mca btl tcp,self --mca btl_tcp_if_include lo)
fi
out="$build/tcp-small.$$"
: > "$out"
per_size=268435456
lat_typ() { awk '/^\[0\] +[0-9]+ +[0-9]+ /{print $6}' | tail -1; }
jccl_ar() {  # $1 config, $2 min, $3 max, then env assignments
  local c="$1" lo="$2" hi="$3"; shift 3
  env "$@" "$jccl" perf allreduce -N 2 -p tcp -b "$lo" -e "$hi" -n 20 --bytes-per-size "$per_size" -w 5 -z 1 -c 0 \
    --jit-warmup 3s | awk -v c="$c" '$1=="[0]" && $2 ~ /^[0-9]+$/ {print c, $2, $7}' >> "$out"
}
mpi_ar() {
  [ -n "$mpi" ] || return 0
  "${mpi[@]}" -np 2 "$build/mpi_allreduce" "$1" "$2" 2 10 5000 20 | awk '{print "ompi", $1, $2}' >> "$out"
}
for ((i = 1; i <= rounds; i++)); do
  echo "round $i of $rounds..." >&2
  echo "lat-inline0 8 $(JCCL_TCP_INLINE=0 "$jccl" perf write_lat -p tcp -s 8 -n 20000 | lat_typ)" >> "$out"
  echo "lat-inline8K 8 $(JCCL_TCP_INLINE=8K "$jccl" perf write_lat -p tcp -s 8 -n 20000 | lat_typ)" >> "$out"
  echo "pingpong 8 $("$JAVA_HOME/bin/java" "$here/bench/SocketPingPong.java" 8 20000 | awk '{print $3}')" >> "$out"
  for range in "8 2048" "262144 8388608"; do
    set -- $range
    jccl_ar jccl "$1" "$2"
    jccl_ar jccl-rc "$1" "$2" JCCL_TCP_INLINE=0
    jccl_ar jccl-new "$1" "$2" JCCL_TCP_SOCKET_WAIT=1
    jccl_ar jccl-2sock "$1" "$2" JCCL_QPS_PER_CONNECTION=2
    jccl_ar jccl-split "$1" "$2" JCCL_TCP_SHARED_SOCKETS=0
    mpi_ar "$1" "$2"
  done
done
median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
med() { awk -v c="$1" -v b="$2" '$1==c && $2==b {print $3}' "$out" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || a+0 == 0) print "-"; else printf "%.2f", b/a }'; }
echo
echo "write_lat tcp 8 B, t_typical in us (speedup = socket ping-pong time / jccl time)"
p=$(med pingpong 8)
printf "%-24s %10s %10s\n" "" "us" "speedup"
for c in lat-inline0 lat-inline8K pingpong; do printf "%-24s %10s %10s\n" "$c" "$(med $c 8)" "$(ratio "$(med $c 8)" "$p")"; done
echo
echo "allreduce float32 sum, 2 ranks over tcp: median us per call over $rounds rounds; speedup = Open MPI / jccl"
printf "%10s %10s %10s %10s %10s %10s %10s %8s %8s %8s %8s %8s\n" bytes jccl inline=0 sockwait 2sockets split ompi-tcp "vs ompi" "0/ompi" "sw/ompi" \
  "2s/ompi" "sp/ompi"
for b in $(awk '$1=="jccl" {print $2}' "$out" | sort -n -u); do
  j=$(med jccl "$b"); r=$(med jccl-rc "$b"); n=$(med jccl-new "$b"); s=$(med jccl-2sock "$b"); p=$(med jccl-split "$b"); o=$(med ompi "$b")
  printf "%10s %10s %10s %10s %10s %10s %10s %8s %8s %8s %8s %8s\n" "$b" "$j" "$r" "$n" "$s" "$p" "$o" "$(ratio "$j" "$o")" "$(ratio "$r" "$o")" \
    "$(ratio "$n" "$o")" "$(ratio "$s" "$o")" "$(ratio "$p" "$o")"
done
rm -f "$out"
