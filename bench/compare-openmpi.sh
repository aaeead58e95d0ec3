#!/usr/bin/env bash
# jccl allreduce against an MPI_Allreduce program of the same shape (bench/mpi_allreduce.c), side by
# side and interleaved in one run: float32 sum, 2 ranks, blocking calls, both timed the same way
# (warm-up, then batches of calls; median over batches of the time per call, p50/p99 of single
# calls, slowest rank).
#
#   shm rows: jccl JCCL_TRANSPORT=shm  vs  Open MPI's default path (vader/sm BTL)
#   tcp rows: jccl JCCL_TRANSPORT=tcp  vs  Open MPI --mca btl tcp,self --mca btl_tcp_if_include lo
#            with a plain program beside them: the same bytes over one loopback socket and one summing
#            pass, no library (bench/PlainSocketAllreduce.java; a bound for the small sizes only)
#   last row: 4 ranks pinned to 2 cores, 8 B, shm, with the floor of bench/yield_floor.c beside it
#
# Open MPI runs out of the box and "tuned" (glibc keeps freed memory: fresh pages are expensive on
# some VMs); its column is the better of the two at each size. jccl also runs `jccl perf allreduce`
# with no flags at all, printed beside the careful figure: what a user sees out of the box.
#
# Usage: bench/compare-openmpi.sh [--quick|--full|--small] [ROUNDS]
#   --quick: 8 B, 1 KiB, 128 KiB, 16 MiB (about 1 min a round on 2 idle cores)
#   --full:  8 B to 256 MiB doubling (default; about 4 min a round on 2 idle cores)
#   --small: 8 B only (the latency rows; about 1 min a round), out of the box as `jccl perf allreduce -b 8 -e 8`
#   ROUNDS:  interleaved rounds, figures are medians over them (default 1)
# With 2 rounds or more each size also shows the spread of its per-round speedups; the last table says,
# for every size with a target, whether the median met it, the rounds disagree, or every round missed it.
# Open MPI: apt-get install openmpi-bin libopenmpi-dev. Without it the jccl columns still print.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-jdk25.sh"
mode=full
if [[ "${1:-}" == --quick || "${1:-}" == --full || "${1:-}" == --small ]]; then mode="${1#--}"; shift; fi
rounds="${1:-1}"
if [[ "$mode" == quick ]]; then lo=8 hi=16777216 factor=128; elif [[ "$mode" == small ]]; then lo=8 hi=8 factor=2; else lo=8 hi=268435456 factor=2; fi
ootb_flags=()
if [[ "$mode" == small ]]; then ootb_flags=(-b 8 -e 8); fi
# The careful settings, the same for both programs: 20 batches of ~10 ms, at least 20 timed calls.
batches=20 batch_ms=10 min_iters=20
started=$SECONDS
have_mpi=1
if ! command -v mpirun >/dev/null || ! command -v mpicc >/dev/null; then have_mpi=0; fi
loud() { echo "!!!!! Open MPI IS MISSING: jccl figures only, no comparison (apt-get install openmpi-bin libopenmpi-dev) !!!!!"; }
build="$here/bench/.build"
mkdir -p "$build"
if ((have_mpi)); then mpicc -O2 -o "$build/mpi_allreduce" "$here/bench/mpi_allreduce.c"; else loud >&2; fi
have_cc=0
if command -v cc >/dev/null && cc -O2 -o "$build/yield_floor" "$here/bench/yield_floor.c"; then have_cc=1; fi
"$here/jccl" --version >/dev/null
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none)
tuned=(env MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=68719476736 GLIBC_TUNABLES=glibc.malloc.hugetlb=1)
tcp_mca=(--mca btl tcp,self --mca btl_tcp_if_include lo)
two_cores=()
if command -v taskset >/dev/null && (($(nproc) >= 2)); then two_cores=(taskset -c 0,1); fi
# The raw lines stay after the run (the last run's only): the table again, or with other awk, from them.
out="$build/compare-openmpi.last"
: > "$out"

# Each line of $out: <config> <bytes> <median_us> <p50_us> <p99_us> <mean_us> <round>
jccl_run() {  # $1 config, $2 provider, $3 ranks, $4 min, $5 max, $6 factor, then a command prefix
  local c="$1" p="$2" np="$3" b="$4" e="$5" f="$6"; shift 6
  "$@" timeout 900 "$here/jccl" perf allreduce -N "$np" -p "$p" -b "$b" -e "$e" -f "$f" -n "$min_iters" -w 5 -z 1 -c 0 \
    --batches "$batches" --batch-time "${batch_ms}ms" --jit-warmup 5s --stats \
    | awk -v c="$c" -v r="$round" '$1=="[0]" && $2 ~ /^[0-9]+$/ {print c, $2, $7, $16, $17, $15, r}' >> "$out" || echo "jccl $c failed" >&2
}
mpi_run() {  # $1 config, $2 ranks, $3 min, $4 max, $5 factor, then the command prefix and extra mpirun args
  ((have_mpi)) || return 0
  local c="$1" np="$2" b="$3" e="$4" f="$5"; shift 5
  timeout 900 "$@" -np "$np" "$build/mpi_allreduce" "$b" "$e" "$f" "$batches" "$((batch_ms * 1000))" "$min_iters" \
    | awk -v c="$c" -v r="$round" '{print c, $1, $2, $3, $4, $5, r}' >> "$out" || echo "Open MPI $c failed" >&2
}
plain_tcp_run() {  # a 2-rank allreduce over one loopback socket, no library: bench/PlainSocketAllreduce.java
  timeout 900 "$JAVA_HOME/bin/java" "$here/bench/PlainSocketAllreduce.java" "$lo" "$hi" "$factor" "$batches" "$((batch_ms * 1000))" "$min_iters" \
    | awk -v r="$round" '{print "plain-tcp", $1, $2, $3, $4, $5, r}' >> "$out" || echo "PlainSocketAllreduce failed" >&2
}
floor_run() {  # the same 4 ranks with no library: bench/yield_floor.c, median of single calls
  ((have_cc)) || return 0
  "${two_cores[@]}" timeout 300 "$build/yield_floor" 4 100000 | awk -v r="$round" '{print "floor-shm4", 8, $1, $1, $2, $3, r}' >> "$out" \
    || echo "yield_floor failed" >&2
}
ootb_run() {  # `jccl perf allreduce` exactly as a user first types it
  timeout 900 "$here/jccl" perf allreduce "${ootb_flags[@]}" | awk -v r="$round" '$1=="[0]" && $2 ~ /^[0-9]+$/ {print "ootb", $2, $7, "-", "-", "-", r}' >> "$out" \
    || echo "jccl perf allreduce (no flags) failed" >&2
}

for ((round = 1; round <= rounds; round++)); do
  echo "round $round of $rounds ($mode)..." >&2
  jccl_run jccl-shm shm 2 "$lo" "$hi" "$factor"
  mpi_run ompi-shm 2 "$lo" "$hi" "$factor" "${mpi[@]}"
  mpi_run ompi-shm-tuned 2 "$lo" "$hi" "$factor" "${tuned[@]}" "${mpi[@]}"
  jccl_run jccl-tcp tcp 2 "$lo" "$hi" "$factor"
  mpi_run ompi-tcp 2 "$lo" "$hi" "$factor" "${mpi[@]}" "${tcp_mca[@]}"
  mpi_run ompi-tcp-tuned 2 "$lo" "$hi" "$factor" "${tuned[@]}" "${mpi[@]}" "${tcp_mca[@]}"
  plain_tcp_run
  jccl_run jccl-shm4 shm 4 8 8 2 "${two_cores[@]}"
  mpi_run ompi-shm4 4 8 8 2 "${two_cores[@]}" "${mpi[@]}"
  floor_run
  ootb_run
done

"$here/bench/compare-openmpi-table.awk" -v rounds="$rounds" -v mode="$mode" -v have_mpi="$have_mpi" "$out"
((have_mpi)) || loud
echo "took $((SECONDS - started)) s ($mode, $rounds round(s)); reproduce: bench/compare-openmpi.sh --$mode $rounds;"
echo "the table again: bench/compare-openmpi-table.awk -v rounds=$rounds -v mode=$mode -v have_mpi=$have_mpi $out"
