package dev.jccl.cli.plan;

import dev.jccl.plan.AlgorithmPlan;
import dev.jccl.plan.PlanRequest;
import dev.jccl.plan.PlanResult;
import dev.jccl.plan.Planner;
import dev.jccl.plan.StepEstimate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every number {@code jccl plan} prints, computed once so that the table, {@code --json} and
 * {@code --report} agree: the closed-form plan of one allreduce of the whole gradient, per
 * algorithm the bucketed sync inside a step, and the what-ifs (accumulation, bf16, clipping, the
 * bandwidth that would hide sync under backward).
 *
 * @param steps            per applicable algorithm, the step estimate (all of sync exposed without a compute time)
 * @param fp32Ns           best one-allreduce time with 4-byte elements on the wire
 * @param bf16Ns           the same with 2-byte elements (bf16 or fp16)
 * @param normRoundNs      one latency-bound allreduce of the clipping norm (4 bytes)
 * @param hideGBps         inter-host bandwidth at which the best sync fits in backward; 0 unknown, -1 impossible
 * @param chart            rank count -> per algorithm the sync time of one step (ns, -1 n/a)
 */
record PlanOutcome(PlanJob job, PlanResult plan, Map<String, StepEstimate> steps, long fp32Ns, long bf16Ns, long normRoundNs,
                   double hideGBps, Map<Integer, Map<String, Long>> chart) {
    static PlanOutcome of(PlanJob job) {
        PlanResult plan = Planner.plan(job.request());
        Map<String, StepEstimate> steps = new LinkedHashMap<>();
        for (AlgorithmPlan a : plan.algorithms()) if (a.applicable()) steps.put(a.algorithm(), step(job, job.request(), a.algorithm()));
        long elems = job.request().bytes() / job.commBytes();
        long fp32 = Planner.bestNs(job.request().withBytes(elems * 4));
        long bf16 = Planner.bestNs(job.request().withBytes(elems * 2));
        long norm = Planner.bestNs(job.request().withBytes(4));
        double hide = job.computeNs() > 0 ? hideBandwidth(job) : 0;
        Map<Integer, Map<String, Long>> chart = new LinkedHashMap<>();
        for (int hosts : chartHosts(job.request())) {
            PlanRequest r = job.request().withHosts(hosts);
            Map<String, Long> row = new LinkedHashMap<>();
            for (String alg : Planner.ALGORITHMS) row.put(alg, syncNs(job, r, alg));
            chart.put(r.ranks(), row);
        }
        return new PlanOutcome(job, plan, steps, fp32, bf16, norm, hide, chart);
    }

    /** One step's bucketed sync with {@code alg}; null if it cannot run here. */
    static StepEstimate step(PlanJob job, PlanRequest r, String alg) {
        try {
            long bucket = Planner.predictAllReduceNs(r.withBytes(Math.min(job.bucketBytes(), r.bytes())), alg);
            long tail = Planner.predictAllReduceNs(r.withBytes(job.tailBytes()), alg);
            return StepEstimate.of(Math.max(0, job.computeNs()), job.accumulation(), job.buckets(), bucket, tail, job.overlap());
        } catch (IllegalArgumentException notHere) {
            return null;
        }
    }

    private static long syncNs(PlanJob job, PlanRequest r, String alg) {
        StepEstimate s = step(job, r, alg);
        return s == null ? -1 : s.syncNs();
    }

    private static List<Integer> chartHosts(PlanRequest r) {
        List<Integer> hosts = new java.util.ArrayList<>();
        int max = Math.max(r.hosts(), Math.min(PlanRequest.MAX_RANKS / r.ranksPerHost(), 128));
        for (int h = 1; h <= max; h *= 2) hosts.add(h);
        if (!hosts.contains(r.hosts())) hosts.add(r.hosts());
        hosts.sort(Integer::compare);
        return hosts;
    }

    /** The inter-host bandwidth (GB/s) at which the tuner's best bucketed sync takes no longer than backward. */
    private static double hideBandwidth(PlanJob job) {
        double backward = job.computeNs() * 2.0 / 3;
        double lo = 1e-3;
        double hi = 1e5;
        if (bestSync(job, hi) > backward) return -1;
        for (int i = 0; i < 40; i++) {
            double mid = Math.sqrt(lo * hi);
            if (bestSync(job, mid) > backward) lo = mid;
            else hi = mid;
        }
        return hi;
    }

    private static long bestSync(PlanJob job, double interGBps) {
        PlanRequest r = job.request().withInter(job.request().inter().withBandwidth(interGBps));
        long bucket = Planner.bestNs(r.withBytes(Math.min(job.bucketBytes(), r.bytes())));
        long tail = Planner.bestNs(r.withBytes(job.tailBytes()));
        return (long) (job.buckets() - 1) * bucket + tail;
    }
}
