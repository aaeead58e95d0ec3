package dev.jccl.plan;

import java.util.Objects;

/**
 * One allreduce the planner prices: {@code bytes} per rank (the gradient as communicated), over
 * {@code hosts} hosts of {@code ranksPerHost} ranks each, with the intra-host and inter-host links,
 * and the speed at which a rank reduces incoming data ({@code reduceGBps}, GB/s).
 */
public record PlanRequest(long bytes, int hosts, int ranksPerHost, LinkSpec intra, LinkSpec inter, double reduceGBps) {
    /** The largest job the planner builds schedules for. */
    public static final int MAX_RANKS = 16_384;
    /** A GPU reduces at memory speed; a CPU core at 4-10 GB/s (pass that for CPU ranks). */
    public static final double DEFAULT_REDUCE_GBPS = 500;

    public PlanRequest {
        Objects.requireNonNull(intra, "intra");
        Objects.requireNonNull(inter, "inter");
        if (bytes < 1) throw new IllegalArgumentException("bytes must be at least 1, got " + bytes);
        if (hosts < 1) throw new IllegalArgumentException("hosts must be at least 1, got " + hosts);
        if (ranksPerHost < 1) throw new IllegalArgumentException("ranks per host must be at least 1, got " + ranksPerHost);
        if ((long) hosts * ranksPerHost > MAX_RANKS) {
            throw new IllegalArgumentException(hosts + " hosts x " + ranksPerHost + " ranks = " + (long) hosts * ranksPerHost
                    + " ranks, more than the " + MAX_RANKS + " the planner models");
        }
        if (!(reduceGBps > 0) || Double.isInfinite(reduceGBps)) throw new IllegalArgumentException("reduce bandwidth must be > 0 GB/s, got " + reduceGBps);
    }

    public static PlanRequest of(long bytes, int hosts, int ranksPerHost, LinkSpec intra, LinkSpec inter) {
        return new PlanRequest(bytes, hosts, ranksPerHost, intra, inter, DEFAULT_REDUCE_GBPS);
    }

    public int ranks() {
        return hosts * ranksPerHost;
    }

    public PlanRequest withBytes(long b) {
        return new PlanRequest(b, hosts, ranksPerHost, intra, inter, reduceGBps);
    }

    public PlanRequest withHosts(int h) {
        return new PlanRequest(bytes, h, ranksPerHost, intra, inter, reduceGBps);
    }

    public PlanRequest withInter(LinkSpec link) {
        return new PlanRequest(bytes, hosts, ranksPerHost, intra, link, reduceGBps);
    }
}
