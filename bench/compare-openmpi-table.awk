#!/usr/bin/awk -f
# The table of bench/compare-openmpi.sh from its result lines "<config> <bytes> <median> <p50> <p99> <mean>
# <round>" (times in us per call, "-" where not measured); figures are medians over rounds. POSIX awk (mawk too).
function med(key,    n, i, j, t, v) {
    n = cnt[key]; if (n == 0) return "-"
    for (i = 1; i <= n; i++) v[i] = val[key, i]
    for (i = 2; i <= n; i++) { t = v[i]; for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]; v[j + 1] = t }
    return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}
function fig(c, b, f) { return med(c SUBSEP b SUBSEP f) }
function human(b) {
    if (b >= 1048576 && b % 1048576 == 0) return (b / 1048576) " MiB"
    if (b >= 1024 && b % 1024 == 0) return (b / 1024) " KiB"
    return b " B"
}
function num(x, fmt) { return x == "-" ? "-" : sprintf(fmt, x) }
function ratio(j, o) { return (j == "-" || o == "-" || j + 0 == 0) ? "-" : sprintf("%.2f", o / j) }
function busbw(t, b, n) { return (t == "-" || t + 0 == 0) ? "-" : sprintf("%.2f", b / t / 1e3 * 2 * (n - 1) / n) }
function better(p, b,    o, t) {  # the faster Open MPI config at size b: "oob" or "tuned", "" when neither ran
    o = fig("ompi-" p, b, 1); t = fig("ompi-" p "-tuned", b, 1)
    if (o == "-" && t == "-") return ""
    if (t == "-" || (o != "-" && o + 0 <= t + 0)) return "ompi-" p
    return "ompi-" p "-tuned"
}
# Speedups of size b of path p round by round, against the Open MPI config the medians chose, over the
# rounds where both ran (a line's 7th field is its round): sets rlo, rhi, rn.
function rounds_of(p, b,    c, r, j, o, x) {
    rlo = ""; rhi = ""; rn = 0
    c = better(p, b)
    if (c == "") return
    for (r = 1; r <= rounds; r++) {
        if (!((("jccl-" p) SUBSEP b SUBSEP r) in byround) || !((c SUBSEP b SUBSEP r) in byround)) continue
        j = byround["jccl-" p, b, r]; o = byround[c, b, r]
        if (j + 0 == 0) continue
        x = o / j; rn++
        if (rlo == "" || x < rlo) rlo = x
        if (rhi == "" || x > rhi) rhi = x
    }
}
function spread(p, b) { rounds_of(p, b); return rn < 2 ? "-" : sprintf("%.2f-%.2f", rlo, rhi) }
# One target row: every measured size of path p in [from, to] against speedup goal: met (median over rounds),
# within the spread (the median missed, some round met it), or missed in every round.
function target(label, p, from, to, goal,    b, c, j, o, r, f, met, total, noise, miss, s) {
    met = 0; total = 0; noise = ""; miss = ""
    for (b = from; b <= to; b *= 2) {
        if (!((("jccl-" p) SUBSEP b) in sizes)) continue
        c = better(p, b); j = fig("jccl-" p, b, 1); o = c == "" ? "-" : fig(c, b, 1)
        if (j == "-" || o == "-" || j + 0 == 0) continue
        total++; r = o / j
        if (r >= goal) { met++; continue }
        rounds_of(p, b)
        f = fig("plain-" p, b, 1)
        s = human(b) " " sprintf("%.2f", r) (rn < 2 ? "" : " (rounds " sprintf("%.2f–%.2f", rlo, rhi) ")") \
            (f == "-" || f + 0 == 0 ? "" : sprintf(", plain socket %.3g µs: jccl %.2fx, Open MPI %.2fx that", f, j / f, o / f))
        if (rhi != "" && rhi >= goal) noise = noise (noise == "" ? "" : "; ") s
        else miss = miss (miss == "" ? "" : "; ") s
    }
    if (total == 0) return
    printf "| %s | ≥ %.2f× | %d of %d | %s | %s |\n", label, goal, met, total, noise == "" ? "-" : noise, miss == "" ? "-" : miss
}
function span(lo, hi, fmt) { return lo == "" ? "-" : (sprintf(fmt, lo) == sprintf(fmt, hi) ? sprintf(fmt, lo) : sprintf(fmt, lo) "–" sprintf(fmt, hi)) }
# One summary row over the sizes [from, to] of path p; bw: busbw instead of time.
function summary(label, p, from, to, bw,    b, c, j, o, jv, ov, u, r, jl, jh, ol, oh, rl, rh, any) {
    jl = ""; ol = ""; rl = ""
    for (b = from; b <= to; b *= 2) {
        if (!((("jccl-" p) SUBSEP b) in sizes)) continue
        c = better(p, b); j = fig("jccl-" p, b, 1); o = c == "" ? "-" : fig(c, b, 1)
        if (j == "-" || j + 0 == 0) continue
        jv = bw ? busbw(j, b, 2) : j; ov = (bw && o != "-") ? busbw(o, b, 2) : o
        if (jl == "" || jv + 0 < jl) jl = jv + 0
        if (jh == "" || jv + 0 > jh) jh = jv + 0
        if (ov != "-") {
            if (ol == "" || ov + 0 < ol) ol = ov + 0
            if (oh == "" || ov + 0 > oh) oh = ov + 0
            r = o / j
            if (rl == "" || r < rl) rl = r
            if (rh == "" || r > rh) rh = r
        }
    }
    if (jl == "") return
    u = bw ? " GB/s" : " µs"
    printf "| %s | %s | %s%s | %s%s | %s× |\n", p == "shm4" ? "shm, 4 ranks on 2 cores" : p, label, bw ? "busbw " : "", span(jl, jh, "%.3g") u,
        span(ol, oh, "%.3g"), ol == "" ? "" : u, span(rl, rh, "%.2f")
}
{
    for (f = 1; f <= 4; f++) {
        if ($(f + 2) == "-") continue
        k = $1 SUBSEP $2 SUBSEP f; val[k, ++cnt[k]] = $(f + 2) + 0
    }
    sizes[$1, $2] = 1
    if (NF >= 7 && $3 != "-") byround[$1, $2, $7] = $3 + 0
    if ($1 ~ /^jccl-(shm|tcp)$/ && !($2 in seen)) { seen[$2] = 1; order[++nsizes] = $2 }
}
END {
    for (i = 2; i <= nsizes; i++) { t = order[i]; for (j = i - 1; j >= 1 && order[j] + 0 > t + 0; j--) order[j + 1] = order[j]; order[j + 1] = t }
    print ""
    printf "allreduce float32 sum, 2 ranks, blocking calls (%s mode): time per call in µs = median over batches, median over %d round(s);\n", mode, rounds
    print "p99 of single calls; Open MPI = the better of out-of-the-box and tuned (cfg); speedup = Open MPI time / jccl time"
    print "(above 1: jccl is faster); busbw in GB/s; plain (tcp): the same bytes over one loopback socket and one summing"
    print "pass, no library (bench/PlainSocketAllreduce.java): a bound up to tens of KiB, a baseline above"
    for (pi = 1; pi <= 2; pi++) {
        p = pi == 1 ? "shm" : "tcp"
        print ""
        printf "%-5s %9s %10s %10s %10s %10s %6s %8s %11s %11s %11s %10s\n", p, "size", "jccl", "jccl p99", "ompi", "ompi p99", "cfg", "speedup", "per round", "jccl busbw", "ompi busbw", "plain"
        for (i = 1; i <= nsizes; i++) {
            b = order[i]; if (!((("jccl-" p) SUBSEP b) in sizes)) continue
            c = better(p, b); j = fig("jccl-" p, b, 1); o = c == "" ? "-" : fig(c, b, 1)
            printf "%-5s %9s %10s %10s %10s %10s %6s %8s %11s %11s %11s %10s\n", "", human(b), num(j, "%.2f"), num(fig("jccl-" p, b, 3), "%.2f"),
                num(o, "%.2f"), c == "" ? "-" : num(fig(c, b, 3), "%.2f"), c == "" ? "-" : (c ~ /tuned$/ ? "tuned" : "oob"),
                ratio(j, o), spread(p, b), busbw(j, b, 2), busbw(o, b, 2), num(fig("plain-" p, b, 1), "%.2f")
        }
    }
    j = fig("jccl-shm4", 8, 1); o = fig("ompi-shm4", 8, 1)
    print ""
    printf "4 ranks on 2 cores, 8 B, shm: jccl %s µs (p99 %s), Open MPI %s µs (p99 %s), speedup %s (per round %s)\n", num(j, "%.2f"),
        num(fig("jccl-shm4", 8, 3), "%.2f"), num(o, "%.2f"), num(fig("ompi-shm4", 8, 3), "%.2f"), ratio(j, o), spread("shm4", 8)
    printf "  floor (bench/yield_floor.c: shared-memory flags and sched_yield, no library): %s µs (p99 %s)\n",
        num(fig("floor-shm4", 8, 1), "%.2f"), num(fig("floor-shm4", 8, 3), "%.2f")
    print ""
    print "Out of the box: `jccl perf allreduce` with no flags (shm, out of place) against the careful jccl figure above"
    printf "%9s %12s %12s %8s\n", "size", "no flags", "careful", "ratio"
    split("8 131072 16777216", mids, " ")
    for (i = 1; i <= 3; i++) {
        b = mids[i]; n = fig("ootb", b, 1); j = fig("jccl-shm", b, 1)
        printf "%9s %12s %12s %8s\n", human(b), num(n, "%.2f"), num(j, "%.2f"), (n == "-" || j == "-" || j + 0 == 0) ? "-" : sprintf("%.2f", n / j)
    }
    print ""
    print "| path | size | jccl | Open MPI | jccl speedup |"
    print "|---|---|---|---|---|"
    summary("8 B", "shm", 8, 8, 0)
    summary("8 KiB – 1 MiB", "shm", 8192, 1048576, 0)
    summary("32–256 MiB", "shm", 33554432, 268435456, 1)
    summary("8 B – 2 KiB", "tcp", 8, 2048, 0)
    summary("256 KiB – 8 MiB", "tcp", 262144, 8388608, 0)
    summary("8 B", "shm4", 8, 8, 0)
    if (!have_mpi) exit
    print ""
    print "Targets, for every size that has one, as speedups: met = the median over rounds meets it; within the spread ="
    print "the median misses and some round met it, so the runs cannot tell; missed = every round missed"
    print ""
    print "| row | target | met | within the spread | missed |"
    print "|---|---|---|---|---|"
    target("shm 8 B", "shm", 8, 8, 0.5)
    target("shm 8 KiB – 256 MiB", "shm", 8192, 268435456, 1)
    target("tcp 8 B", "tcp", 8, 8, 1 / 1.5)
    target("tcp 8 KiB – 256 MiB", "tcp", 8192, 268435456, 1)
    target("shm, 4 ranks on 2 cores, 8 B", "shm4", 8, 8, 1)
}
