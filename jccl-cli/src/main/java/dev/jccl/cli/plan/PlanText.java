package dev.jccl.cli.plan;

import dev.jccl.plan.AlgorithmPlan;
import dev.jccl.plan.PlanRequest;
import dev.jccl.plan.SimResult;
import dev.jccl.plan.StepEstimate;
import dev.jccl.util.Sizes;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;

/** The table {@code jccl plan} prints, and the lines under it. */
final class PlanText {
    private PlanText() {}

    static void print(PrintStream out, PlanOutcome o, List<SimRow> sims) {
        PlanJob job = o.job();
        PlanRequest r = job.request();
        out.println("model: " + (job.params() > 0 ? Units.params(job.params()) + " parameters, " : "")
                + "gradients " + Units.bytes(job.gradientBytes()) + " (" + Units.type(job.gradBytes()) + "), on the wire "
                + Units.bytes(r.bytes()) + " (" + Units.type(job.commBytes()) + ") per sync");
        out.println("cluster: " + r.hosts() + " hosts x " + r.ranksPerHost() + " ranks = " + r.ranks() + " ranks; intra "
                + r.intra().describe() + " per rank, inter " + r.inter().describe() + " per host NIC; reduce "
                + String.format(Locale.ROOT, "%.0f GB/s", r.reduceGBps()) + "; links from " + job.linksFrom());
        out.println("step: " + (job.computeNs() > 0 ? "compute " + Units.time(job.computeNs()) + " per micro-step"
                        : "compute unknown (--compute, --flops or --tokens)")
                + ", " + job.buckets() + " buckets of " + Units.bytes(job.bucketBytes()) + ", " + job.accumulation() + " micro-step"
                + (job.accumulation() == 1 ? "" : "s") + " per sync" + (job.overlap() ? ", overlapped with backward" : ", no overlap"));
        out.println();
        out.printf(Locale.ROOT, "  %-19s %10s %11s %11s %12s %11s %3s %7s | %10s %10s %6s %7s%n", "algorithm", "allreduce", "busbw",
                "sent/rank", "xhost/rank", "host link", "ch", "chunk", "sync/step", "exposed", "share", "hidden");
        for (AlgorithmPlan a : o.plan().algorithms()) {
            String mark = a.algorithm().equals(o.plan().choice()) ? "* " : "  ";
            if (!a.applicable()) {
                out.printf(Locale.ROOT, "%s%-19s n/a: %s%n", mark, a.algorithm(), a.notApplicable());
                continue;
            }
            StepEstimate s = o.steps().get(a.algorithm());
            boolean known = job.computeNs() > 0 && s != null;
            out.printf(Locale.ROOT, "%s%-19s %10s %6.1f GB/s %11s %12s %11s %3d %7s | %10s %10s %6s %7s%n", mark, a.algorithm(),
                    Units.time(a.timeNs()), a.busbwGBps(), Units.bytes(a.sentBytesPerRank()), Units.bytes(a.crossHostBytesPerRank()),
                    Units.bytes(a.hostLinkBytes()), a.channels(), Sizes.formatBytes(a.chunkBytes()).replace(" ", ""),
                    s == null ? "-" : Units.time(s.syncNs()), known ? Units.time(s.exposedNs()) : "-",
                    known ? Units.percent(s.exposedShare()) : "-", known ? Units.percent(s.hiddenShare()) : "-");
        }
        out.println();
        for (String line : PlanFindings.lines(o)) out.println(line);
        if (!sims.isEmpty()) printSims(out, sims);
    }

    private static void printSims(PrintStream out, List<SimRow> sims) {
        out.println();
        out.println("simulation (the real schedules, chunk by chunk, against per-link queues) against the closed form:");
        out.printf(Locale.ROOT, "  %6s %-19s %10s %10s %7s %9s %9s  %s%n", "ranks", "algorithm", "simulated", "closed", "diff", "sim wall",
                "events", "busiest");
        for (SimRow row : sims) {
            SimResult s = row.result();
            if (s == null) {
                out.printf(Locale.ROOT, "  %6d %-19s n/a: %s%n", row.ranks(), row.algorithm(), row.skipped());
                continue;
            }
            out.printf(Locale.ROOT, "  %6d %-19s %10s %10s %+6.1f%% %8.2fs %9d  %s%n", row.ranks(), row.algorithm(), Units.time(s.simulatedNs()),
                    Units.time(s.closedFormNs()), 100 * s.difference(), s.wallNs() / 1e9, s.events(), s.bottleneck());
        }
        out.println("where they differ by more than 2%, and why (from the largest rank count):");
        Map<String, List<SimRow>> byAlgorithm = new LinkedHashMap<>();
        for (SimRow row : sims) if (row.result() != null) byAlgorithm.computeIfAbsent(row.algorithm(), k -> new ArrayList<>()).add(row);
        for (List<SimRow> rows : byAlgorithm.values()) {
            SimResult last = rows.getLast().result();
            if (last.reasons().isEmpty()) continue;
            String diffs = String.join(", ", rows.stream()
                    .map(r -> String.format(Locale.ROOT, "%+.1f%% at %d", 100 * r.result().difference(), r.ranks())).toList());
            out.printf(Locale.ROOT, "  %s (%s): %s%n", last.algorithm(), diffs, String.join("; ", last.reasons()));
        }
    }
}
