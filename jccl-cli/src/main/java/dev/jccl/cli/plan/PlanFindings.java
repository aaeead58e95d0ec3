package dev.jccl.cli.plan;

import dev.jccl.plan.AlgorithmPlan;
import dev.jccl.plan.PlanRequest;
import dev.jccl.plan.StepEstimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The sentences under the table: the tuner's choice and the what-ifs, from the numbers of a {@link PlanOutcome}. */
final class PlanFindings {
    private PlanFindings() {}

    static List<String> lines(PlanOutcome o) {
        PlanJob job = o.job();
        PlanRequest r = job.request();
        List<String> out = new ArrayList<>();
        out.add("tuner's choice: " + o.plan().choice() + " (" + o.plan().why() + ")");
        AlgorithmPlan ring = o.plan().get("ring");
        AlgorithmPlan hier = o.plan().get("hierarchical");
        if (hier.applicable() && ring.crossHostBytesPerRank() > 0) {
            out.add(String.format(Locale.ROOT, "cross-host bytes: hierarchical sends %s per rank across hosts, %.3f of the flat ring's %s"
                            + " (1/%d of the data per rank, times (h-1)/h over (n-1)/n); a host's NIC carries %s against the ring's %s",
                    Units.bytes(hier.crossHostBytesPerRank()), (double) hier.crossHostBytesPerRank() / ring.crossHostBytesPerRank(),
                    Units.bytes(ring.crossHostBytesPerRank()), r.ranksPerHost(), Units.bytes(hier.hostLinkBytes()), Units.bytes(ring.hostLinkBytes())));
        }
        StepEstimate best = o.steps().get(o.plan().choice());
        if (best != null) {
            int k = job.accumulation();
            long sync = best.syncNs();
            out.add(k == 1
                    ? "accumulation: with --accum-steps K sync (" + Units.time(sync) + ") runs once per K micro-steps: " + Units.time(sync / 2)
                    + " per micro-step at K=2, " + Units.time(sync / 4) + " at K=4"
                    : "accumulation: sync (" + Units.time(sync) + ") runs once per " + k + " micro-steps: " + Units.time(sync / k)
                    + " per micro-step instead of " + Units.time(sync));
        }
        long now = job.commBytes() == 4 ? o.fp32Ns() : o.bf16Ns();
        out.add(job.commBytes() == 4
                ? "bf16 communication: one allreduce " + Units.time(o.bf16Ns()) + " instead of " + Units.time(now) + " (half the bytes; --comm-precision bf16)"
                : "16-bit communication: one allreduce " + Units.time(now) + "; fp32 would take " + Units.time(o.fp32Ns()) + " (twice the bytes)");
        out.add("clipping: a separate allreduce of the global norm costs " + Units.time(o.normRoundNs()) + " per step (latency-bound);"
                + " fusing it into the last bucket saves that round" + (job.clip() ? "" : " (--clip)"));
        if (job.computeNs() <= 0) {
            out.add("hiding sync: give --compute, --flops or --tokens to see what share of the step sync takes and the bandwidth that hides it");
        } else if (o.hideGBps() < 0) {
            out.add("hiding sync: no inter-host bandwidth hides it under backward (" + Units.time(job.computeNs() * 2 / 3)
                    + "): latency and the intra-host link alone take longer");
        } else {
            out.add(String.format(Locale.ROOT, "hiding sync: it fits under backward (%s) with an inter-host link of %.1f GB/s (%.0f Gb/s) per host;"
                    + " this one has %.1f GB/s", Units.time(job.computeNs() * 2 / 3), o.hideGBps(), o.hideGBps() * 8, r.inter().gbytesPerSec()));
        }
        return out;
    }
}
