package dev.jccl.netns;

import dev.jccl.plan.HostCpu;
import dev.jccl.plan.PlanRequest;
import dev.jccl.plan.Planner;
import dev.jccl.util.Sizes;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The host-CPU cost per byte sent that {@link PlanVsMeasured} measures on one case (its ranks' CPU time
 * over the bytes they sent) and applies to cases of another host count: out of sample, as alpha's probe
 * is separate from the calls it prices.
 */
record CpuCalibration(int hosts, String from, double nsPerByte) {
    /** By algorithm: the last undelayed case's CPU cost per byte, applied to cases of other host counts (never to its own). */
    private static final Map<String, CpuCalibration> COST = new java.util.concurrent.ConcurrentHashMap<>();

    /** The machine's cores, shared by every host of the cluster. */
    static final int CORES = Runtime.getRuntime().availableProcessors();

    /**
     * From a case's largest size of at least 4 MiB (bandwidth-bound, few messages): the ranks' CPU time per
     * call (rank cores x measured time) over the bytes all ranks sent ({@link Planner#sentBytesPerRank}).
     */
    static void calibrate(PlanVsMeasured.Case c, List<PlanVsMeasured.Row> rows, List<String> notes) {
        PlanVsMeasured.Row r = rows.stream().filter(x -> x.bytes() >= 4L << 20).reduce((a, b) -> b).orElse(null);
        if (r == null || c.delayMs() > 0) return;
        PlanRequest req = PlanVsMeasured.request(c, r.bytes(), PlanVsMeasured.intraLink(r.alphaNs()), PlanVsMeasured.interLink(c.rate(), r.alphaNs()));
        double sent = (double) Planner.sentBytesPerRank(req, c.algorithm()) * c.hosts() * PlanVsMeasured.RANKS_PER_HOST;
        double cpuNs = r.rankMilliCores() / 1e3 * r.measuredNs();
        CpuCalibration cal = new CpuCalibration(c.hosts(), c.name() + " " + Sizes.formatBytes(r.bytes()), HostCpu.nsPerByte(cpuNs, sent));
        COST.put(c.algorithm(), cal);
        notes.add(String.format(Locale.ROOT, "host CPU: %.2f ns per byte sent (%.2f rank cores x %.1f ms over %.1f MB sent at %s),"
                + " the cpu column of later %s cases of other host counts", cal.nsPerByte(), r.rankMilliCores() / 1e3, r.measuredNs() / 1e6,
                sent / 1e6, Sizes.formatBytes(r.bytes()), c.algorithm()));
    }

    /** The host-CPU bound of a row: every host on this machine, so a host has CORES / hosts cores; 0 without a calibration. */
    static long boundNs(PlanVsMeasured.Case c, PlanRequest req) {
        CpuCalibration cal = COST.get(c.algorithm());
        if (cal == null || cal.hosts() == c.hosts()) return 0;
        return Planner.cpuBoundNs(req, c.algorithm(), new HostCpu(cal.nsPerByte(), (double) CORES / c.hosts()));
    }
}
