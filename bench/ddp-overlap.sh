#!/usr/bin/env bash
# Data-parallel training step time with buckets overlapping backward vs all sent after backward:
# `jccl demo` run alternately with and without --no-overlap, medians of interleaved rounds.
# Usage: bench/ddp-overlap.sh [ROUNDS] [STEPS] [extra demo options...]   (defaults 3, 100)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
rounds="${1:-3}"
steps="${2:-100}"
shift $(( $# > 2 ? 2 : $# )) || true
jccl="$here/jccl"
"$jccl" --version >/dev/null   # build once, outside the timings

median() { sort -g | awk '{a[NR]=$1} END {if (NR==0) print "n/a"; else if (NR%2) print a[(NR+1)/2]; else printf "%.2f\n", (a[NR/2]+a[NR/2+1])/2}'; }
# From the summary: "mean step time (...): S ms = compute C ms (...) + exposed communication E ms + other O ms ..."
#                   "communication: T ms per step in flight, X ms exposed, H ms (P%) hidden under backward"
field() { sed -n "$1" | head -1; }

declare -A r
for ((i = 1; i <= rounds; i++)); do
  for mode in overlap no-overlap; do
    opt=(); [ "$mode" = no-overlap ] && opt=(--no-overlap)
    start=$(date +%s.%N)
    out="$("$jccl" demo --steps "$steps" --reference-steps 1 "${opt[@]}" "$@")"
    wall=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN{printf "%.1f", e-s}')
    r[${mode}_step]+="$(echo "$out" | field 's/.*mean step time ([^)]*): \([0-9.]*\) ms = compute \([0-9.]*\) ms.*/\1/p') "
    r[${mode}_compute]+="$(echo "$out" | field 's/.*mean step time ([^)]*): [0-9.]* ms = compute \([0-9.]*\) ms.*/\1/p') "
    r[${mode}_comm]+="$(echo "$out" | field 's/.*communication: \([0-9.]*\) ms per step in flight.*/\1/p') "
    r[${mode}_exposed]+="$(echo "$out" | field 's/.*in flight, \([0-9.]*\) ms exposed.*/\1/p') "
    r[${mode}_hidden]+="$(echo "$out" | field 's/.*ms exposed, \([0-9.]*\) ms (.*/\1/p') "
    r[${mode}_share]+="$(echo "$out" | field 's/.* ms (\([0-9]*\)%) hidden.*/\1/p') "
    r[${mode}_wall]+="$wall "
  done
done

m() { echo "${r[$1]:-}" | tr ' ' '\n' | grep -v '^$' | median; }
echo "medians of $rounds interleaved rounds, $steps steps each (warm-up steps left out of the means); load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-34s %12s %12s\n" "per step (rank 0)" "overlap" "no-overlap"
for k in step compute comm exposed hidden; do
  printf "%-34s %12s %12s\n" "$k ms" "$(m overlap_$k)" "$(m no-overlap_$k)"
done
printf "%-34s %12s %12s\n" "communication hidden under backward %" "$(m overlap_share)" "$(m no-overlap_share)"
printf "%-34s %12s %12s\n" "whole run wall s" "$(m overlap_wall)" "$(m no-overlap_wall)"
