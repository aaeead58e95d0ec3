package dev.jccl.plan;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.jccl.algo.Algorithm;
import dev.jccl.algo.Collective;
import dev.jccl.algo.CollectiveArgs;
import dev.jccl.algo.CostParams;
import dev.jccl.algo.HostTopology;
import dev.jccl.algo.LinkParams;
import dev.jccl.algo.Plan;
import dev.jccl.algo.RankSchedule;
import dev.jccl.algo.Schedules;
import dev.jccl.algo.Step;
import dev.jccl.algo.TuneRequest;
import dev.jccl.algo.Tuner;
import dev.jccl.algo.TunerOverrides;

/**
 * The closed form: the tuner's own cost model ({@link Tuner#plan}) over the links of a request,
 * so a plan predicts what a job would choose and how long the tuner thinks it takes. Stateless.
 */
public final class Planner {
    private Planner() {}

    /** The allreduce algorithms, by the names {@code JCCL_ALGO} takes. */
    public static final List<String> ALGORITHMS = List.of("ring", "tree", "halving_doubling", "recursive_doubling", "hierarchical");

    /** Channels beyond 4 only add overhead when one channel reaches a link's bandwidth, as on every preset. */
    static final int MAX_CHANNELS = 4;
    static final long CHANNEL_OVERHEAD_NS = 1_000;
    private static final int SAMPLE = 64;

    public static PlanResult plan(PlanRequest req) {
        Plan p = tune(req, TunerOverrides.NONE);
        HostTopology t = topology(req);
        List<AlgorithmPlan> out = new ArrayList<>();
        for (String name : ALGORITHMS) {
            Plan.Candidate c = p.candidates().stream().filter(x -> x.algorithm().knobName().equals(name)).findFirst().orElseThrow();
            if (!c.applicable()) {
                out.add(new AlgorithmPlan(name, c.notApplicable(), -1, 0, 0, 0, 0, 0, 0));
                continue;
            }
            long[] bytes = traffic(Algorithm.parse(name), req.bytes(), t);
            out.add(new AlgorithmPlan(name, null, c.predictedNs(), c.channels(), c.chunkBytes(), bytes[0], bytes[1], bytes[2],
                    busbw(req.bytes(), req.ranks(), c.predictedNs())));
        }
        return new PlanResult(req, out, p.algorithm().knobName(), p.why());
    }

    /**
     * The predicted time of one allreduce of {@code req.bytes()} with {@code algorithm} (its best
     * channel count and chunk), in ns: the number a measured run is compared with.
     *
     * @throws IllegalArgumentException if the algorithm is unknown or cannot run on this topology
     */
    public static long predictAllReduceNs(PlanRequest req, String algorithm) {
        Algorithm a = Algorithm.parse(algorithm);
        Plan p = tune(req, TunerOverrides.NONE.withAlgorithms(a));
        if (p.algorithm() != a) throw new IllegalArgumentException(algorithm + " cannot run on " + topology(req).describe() + ": " + p.why());
        return p.predictedNs();
    }

    /**
     * The same, priced at {@code channels} and {@code chunkBytes}: what a job ran with, chosen by its
     * own tuner from default link parameters, so a measurement is compared with the configuration
     * that ran rather than the one the planner would pick for these links.
     */
    public static long predictAllReduceNs(PlanRequest req, String algorithm, int channels, long chunkBytes) {
        Algorithm a = Algorithm.parse(algorithm);
        Plan p = tune(req, TunerOverrides.NONE.withAlgorithms(a).withChannels(channels).withChunkBytes(chunkBytes));
        if (p.algorithm() != a) throw new IllegalArgumentException(algorithm + " cannot run on " + topology(req).describe() + ": " + p.why());
        return p.predictedNs();
    }

    /** The tuner's fastest time for one allreduce of {@code req.bytes()}, in ns. */
    public static long bestNs(PlanRequest req) {
        return tune(req, TunerOverrides.NONE).predictedNs();
    }

    /** nccl-tests' bus bandwidth of an allreduce: algbw x 2(n-1)/n, in GB/s. */
    public static double busbw(long bytes, int ranks, long ns) {
        if (ns <= 0) return 0;
        return (double) bytes / ns * 2.0 * (ranks - 1) / ranks;
    }

    /** The tuner's cost parameters for these links: one channel reaches a link's bandwidth, as GPU copy engines and RDMA NICs do. */
    static CostParams costParams(PlanRequest req) {
        return new CostParams(link(req.intra()), link(req.inter()), 1 / req.reduceGBps(), CHANNEL_OVERHEAD_NS, MAX_CHANNELS);
    }

    static HostTopology topology(PlanRequest req) {
        return HostTopology.uniform(req.hosts(), req.ranksPerHost());
    }

    static Plan tune(PlanRequest req, TunerOverrides o) {
        return Tuner.plan(new TuneRequest(Collective.ALL_REDUCE, req.bytes(), topology(req)), costParams(req), o);
    }

    private static LinkParams link(LinkSpec l) {
        return LinkParams.of(l.latencyNs(), l.gbytesPerSec(), l.gbytesPerSec(), l.chunkOverheadNs());
    }

    /** {most sent by one rank, most sent across hosts by one rank, most leaving one host}, from the schedules of one-byte elements. */
    static long[] traffic(Algorithm a, long bytes, HostTopology t) {
        Set<Integer> hosts = new LinkedHashSet<>(List.of(0, t.hosts() - 1));
        long sent = 0;
        long cross = 0;
        long link = 0;
        for (int h : hosts) {
            long leaving = 0;
            int[] on = t.ranksOn(h);
            // A large host is sampled evenly and its NIC load scaled: exact up to SAMPLE ranks per host.
            int step = Math.max(1, on.length / SAMPLE);
            for (int i = 0; i < on.length; i += step) {
                int r = on[i];
                RankSchedule s = Schedules.build(a, CollectiveArgs.of(Collective.ALL_REDUCE, bytes), t, r);
                long x = 0;
                for (Step st : s.steps()) if (st.send() != null && !t.sameHost(r, st.send().peer())) x += st.send().from().count();
                sent = Math.max(sent, s.sentElems());
                cross = Math.max(cross, x);
                leaving += x * step;
            }
            link = Math.max(link, leaving);
        }
        return new long[] {sent, cross, link};
    }
}
