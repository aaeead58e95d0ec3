#!/usr/bin/env bash
# jccl `perf allreduce` against an MPI_Allreduce program of the same shape, side by side and
# interleaved in one run: float32 sum, sizes 8 B to 256 MiB, medians of several rounds.
#
#   shm path: jccl over shm      vs  Open MPI's default path
#   tcp path: jccl over tcp      vs  Open MPI with --mca btl tcp,self --mca btl_tcp_if_include lo
#
# Open MPI runs twice per path: out of the box, and "tuned" with glibc told to keep freed memory
# (fresh pages are expensive on some VMs). jccl runs out of the box only: its registered buffers
# are reused. A last row times 8 B with 4 ranks on this machine's cores.
#
# Usage: bench/compare-openmpi.sh [ROUNDS] [MAX_BYTES] [MIN_BYTES]   (defaults: 3, 268435456, 8)
#   PATHS="tcp" (or "shm", default "shm tcp") runs only those paths (the 4-rank row runs with shm).
# Needs Open MPI: apt-get install openmpi-bin libopenmpi-dev
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/scripts/find-jdk25.sh"
rounds="${1:-3}"
max="${2:-268435456}"
min="${3:-8}"
paths="${PATHS:-shm tcp}"
if ! command -v mpirun >/dev/null || ! command -v mpicc >/dev/null; then
  echo "Open MPI is missing. Install it with: apt-get install openmpi-bin libopenmpi-dev" >&2
  exit 1
fi
build="$here/bench/.build"
mkdir -p "$build"
mpicc -O2 -o "$build/mpi_allreduce" "$here/bench/mpi_allreduce.c"
"$here/jccl" --version >/dev/null
mpi=(mpirun --allow-run-as-root --oversubscribe --bind-to none)
tuned=(env MALLOC_MMAP_MAX_=0 MALLOC_TRIM_THRESHOLD_=68719476736 GLIBC_TUNABLES=glibc.malloc.hugetlb=1)
out="$build/results.$$"
: > "$out"

# Both sides time blocking calls (jccl: -z 1, each call awaited before the next), after warming
# up: jccl for a few seconds of untimed calls first (--jit-warmup), since a cold JVM runs the data
# path interpreted. Each size runs at least 20 calls and, below 50 KiB, more (up to 20,000) until
# 1 GiB has moved: at small sizes a single descheduled rank would otherwise set the mean.
per_size=1073741824

# Each line of $out: <config> <bytes> <time_us>
jccl_run() {  # $1 config name, $2 provider, $3 ranks, $4 min, $5 max
  "$here/jccl" perf allreduce -N "$3" -p "$2" -b "$4" -e "$5" -n 20 --bytes-per-size "$per_size" -w 5 -z 1 -c 0 \
    --jit-warmup 5s | awk -v c="$1" '$1=="[0]" && $2 ~ /^[0-9]+$/ {print c, $2, $7}' >> "$out"
}
mpi_run() {  # $1 config name, $2 ranks, $3 min, $4 max, then the command prefix and extra mpirun args
  local c="$1" np="$2" lo="$3" hi="$4"; shift 4
  "$@" -np "$np" "$build/mpi_allreduce" "$lo" "$hi" 20 "$per_size" | awk -v c="$c" '{print c, $1, $2}' >> "$out"
}

tcp_mca=(--mca btl tcp,self --mca btl_tcp_if_include lo)
for ((i = 1; i <= rounds; i++)); do
  echo "round $i of $rounds..." >&2
  if [[ " $paths " == *" shm "* ]]; then
    jccl_run jccl-shm shm 2 "$min" "$max"
    mpi_run ompi-shm 2 "$min" "$max" "${mpi[@]}"
    mpi_run ompi-shm-tuned 2 "$min" "$max" "${tuned[@]}" "${mpi[@]}"
  fi
  if [[ " $paths " == *" tcp "* ]]; then
    jccl_run jccl-tcp tcp 2 "$min" "$max"
    mpi_run ompi-tcp 2 "$min" "$max" "${mpi[@]}" "${tcp_mca[@]}"
    mpi_run ompi-tcp-tuned 2 "$min" "$max" "${tuned[@]}" "${mpi[@]}" "${tcp_mca[@]}"
  fi
  if [[ " $paths " == *" shm "* ]]; then
    jccl_run jccl-shm-4 shm 4 8 8
    mpi_run ompi-shm-4 4 8 8 "${mpi[@]}"
  fi
done

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "-"; else if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
med() { awk -v c="$1" -v b="$2" '$1==c && $2==b {print $3}' "$out" | median; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || a+0 == 0) print "-"; else printf "%.2f", b/a }'; }
busbw() { awk -v t="$1" -v b="$2" -v n="$3" 'BEGIN { if (t == "-" || t+0 == 0) print "-"; else printf "%.2f", b/t/1e3 * 2*(n-1)/n }'; }

echo
echo "allreduce float32 sum, 2 ranks: median time per call in us over $rounds interleaved rounds"
echo "speedup = Open MPI time / jccl time (above 1: jccl is faster); busbw in GB/s"
for path in $paths; do
  echo
  printf "%-6s %11s %11s %11s %11s %8s %8s %9s %9s\n" "$path" "bytes" "jccl" "ompi" "ompi-tuned" "vs ompi" "vs tuned" "busbw" "busbw-tuned"
  for b in $(awk -v c="jccl-$path" '$1==c {print $2}' "$out" | sort -n -u); do
    j=$(med "jccl-$path" "$b"); o=$(med "ompi-$path" "$b"); t=$(med "ompi-$path-tuned" "$b")
    printf "%-6s %11s %11s %11s %11s %8s %8s %9s %9s\n" "" "$b" "$j" "$o" "$t" "$(ratio "$j" "$o")" "$(ratio "$j" "$t")" \
      "$(busbw "$j" "$b" 2)" "$(busbw "$t" "$b" 2)"
  done
done
echo
if [[ " $paths " == *" shm "* ]]; then
  j=$(med jccl-shm-4 8); o=$(med ompi-shm-4 8)
  echo "4 ranks, 8 B, shm: jccl $j us, Open MPI $o us, speedup $(ratio "$j" "$o")"
fi
rm -f "$out"
