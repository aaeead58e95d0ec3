package dev.jccl.algo;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The α-β(-γ) model behind the tuner. An algorithm is a list of message steps; each step moves B
 * bytes per channel over a link kind (shared memory if every pair of the step shares a host, else
 * network) that F flows per host share. A chunk of C bytes costs o + C·max(β, γ) for a reducing
 * step (reduction of one chunk overlaps the transfer of the next) and o + C·β otherwise, where β
 * per channel is max(stream β, link β·F·channels). A link has S slot credits per channel (the
 * runtime's FIFO slots), and a slot is free again one round trip after its chunk was posted (the
 * chunk, its reduction, the credit's way back: chunk + 2α + reduce), so every S-th chunk on a link
 * waits for that round trip where S chunks take less ({@link ChunkTimes}). Then:
 * <ul>
 *   <li>pipelined steps (rings, chains, trees: chunk c of step k+1 follows chunk c of step k) cost
 *       max(fill, load): fill = Σ(α + one chunk) along the slowest chunk's chain of links + the
 *       longest step's remaining chunks, load = α + the chunks of all steps that share one link back
 *       to back. A ring step has pairs on both link kinds, but a chunk's chain crosses hosts only on
 *       the ring's cross-host edges it passes (h of every n), so it pays the network's α only there;</li>
 *   <li>store-and-forward steps (halving-doubling and recursive doubling, whose next step needs
 *       most of this one) cost Σ(α + all chunks);</li>
 *   <li>concurrent steps (pairwise exchange: no step waits on another) cost max α + all chunks.</li>
 * </ul>
 * So pipelining hides per-hop latency for large messages and log-depth algorithms win for small
 * ones. Pure arithmetic, no state.
 */
final class CostModel {
    /** One step: link kind, flows per host sharing the link, and its bytes as a share of a channel's. */
    private record Hop(boolean net, int flows, double share, boolean reduces, int link) {}

    private enum Shape { PIPELINED, STORE_AND_FORWARD, CONCURRENT }

    /** {@code count} links of one kind, bytes and reduction on a chunk's chain (their order does not change its sum). */
    private record Leg(Hop hop, int count) {}

    /**
     * An algorithm's steps over a topology, and the chains of links a chunk can take through them
     * (the fill is the slowest chain's); independent of size, channels and chunk, so built once per plan.
     */
    record Route(List<Hop> hops, Shape shape, List<List<Leg>> chains, boolean onePeerPerLink) {}

    private final CostParams p;

    CostModel(CostParams params) {
        this.p = params;
    }

    Route route(Algorithm a, TuneRequest req) {
        List<Hop> hops = new ArrayList<>();
        Shape shape = hops(a, req, 1.0, hops);
        List<List<Leg>> chains = a == Algorithm.RING && !req.collective().rooted() ? ringChains(req)
                : List.of(hops.stream().map(h -> new Leg(h, 1)).toList());
        // A ring's steps on one link all go to the same peer, through one FIFO and its slots; a tree's or halving-doubling's
        // levels share the rank's bandwidth but each has its own peer and FIFO.
        boolean onePeer = a == Algorithm.HIERARCHICAL || a == Algorithm.RING && !req.collective().rooted();
        return new Route(List.copyOf(hops), shape, chains, onePeer);
    }

    /** At {@code slots} slot credits per link and channel ({@link Tuner#slots}). */
    double predictNs(Route route, long bytes, int channels, long chunkBytes, int slots) {
        return time(route, (double) bytes / channels, channels, chunkBytes, slots) + channels * p.channelOverheadNs();
    }

    double predictNs(Algorithm a, TuneRequest req, int channels, long chunkBytes) {
        return predictNs(route(a, req), req.bytes(), channels, chunkBytes, Tuner.slots(Tuner.DEFAULT_BUFF_BYTES, chunkBytes));
    }

    /**
     * The ring's chunk chains: a block is reduced along n-1 consecutive ring edges and its result
     * copied along the next n-1, so each block's chain is a window of 2(n-1) edges from its own start.
     * Windows that cross hosts equally often cost the same; one of each (reduce, gather) count is kept.
     */
    private List<List<Leg>> ringChains(TuneRequest req) {
        HostTopology t = req.topology();
        int n = t.nranks();
        int[] order = t.order();
        int phase = n - 1;
        // cross[i]: how many of the first i edges cross hosts, going three times around the ring (a window starts in the first).
        int[] cross = new int[3 * n + 1];
        for (int i = 0; i < 3 * n; i++) cross[i + 1] = cross[i] + (t.sameHost(order[i % n], order[(i + 1) % n]) ? 0 : 1);
        Collective c = req.collective();
        int reduceLen = c == Collective.ALL_GATHER ? 0 : phase;
        int gatherLen = c == Collective.REDUCE_SCATTER ? 0 : phase;
        Hop net = hop(t, ringPairs(order), 1.0 / n, true, 0);
        Map<Long, List<Leg>> distinct = new HashMap<>();
        for (int start = 0; start < n; start++) {
            int netR = cross[start + reduceLen] - cross[start];
            int netG = cross[start + reduceLen + gatherLen] - cross[start + reduceLen];
            distinct.computeIfAbsent((long) netR << 32 | netG, k -> List.of(
                    new Leg(new Hop(true, net.flows(), 1.0 / n, true, 0), netR), new Leg(new Hop(false, 1, 1.0 / n, true, 0), reduceLen - netR),
                    new Leg(new Hop(true, net.flows(), 1.0 / n, false, 0), netG), new Leg(new Hop(false, 1, 1.0 / n, false, 0), gatherLen - netG)));
        }
        return List.copyOf(distinct.values());
    }

    private static int[][] ringPairs(int[] order) {
        int n = order.length;
        int[][] ring = new int[n][];
        for (int i = 0; i < n; i++) ring[i] = new int[] {order[i], order[(i + 1) % n]};
        return ring;
    }

    /**
     * The steps of one channel, {@code s} standing for its bytes (1 when building a route). Rooted collectives are priced from the first
     * rank of the host-grouped order: another root rotates the chain or tree, which changes how many
     * hops cross hosts by at most one.
     */
    private Shape hops(Algorithm a, TuneRequest req, double s, List<Hop> out) {
        HostTopology t = req.topology();
        int n = t.nranks();
        int[] order = t.order();
        Collective c = req.collective();
        switch (a) {
            case RING -> {
                if (c.rooted()) {
                    for (int i = 0; i + 1 < n; i++) out.add(hop(t, new int[][] {{order[i], order[i + 1]}}, s, c == Collective.REDUCE, i));
                    return Shape.PIPELINED;
                }
                int[][] ring = ringPairs(order);
                // Reduce-scatter steps, then allgather steps; every step uses the same outgoing link.
                Hop reduceStep = hop(t, ring, s / n, true, 0);
                Hop gatherStep = new Hop(reduceStep.net(), reduceStep.flows(), s / n, false, 0);
                if (c != Collective.ALL_GATHER) for (int k = 0; k < n - 1; k++) out.add(reduceStep);
                if (c != Collective.REDUCE_SCATTER) for (int k = 0; k < n - 1; k++) out.add(gatherStep);
                return Shape.PIPELINED;
            }
            case TREE -> {
                if (c != Collective.BROADCAST) binomial(t, order, s, true, out);
                if (c != Collective.REDUCE) binomial(t, order, s, false, out);
                return Shape.PIPELINED;
            }
            case HALVING_DOUBLING -> {
                halvingDoubling(t, order, s, out);
                return Shape.STORE_AND_FORWARD;
            }
            case RECURSIVE_DOUBLING -> {
                recursiveDoubling(t, order, s, out);
                return Shape.STORE_AND_FORWARD;
            }
            case HIERARCHICAL -> {
                hierarchical(t, s, out);
                return Shape.PIPELINED;
            }
            case PAIRWISE -> {
                for (int k = 1; k < n; k++) out.add(hop(t, shifted(n, k), s / n, false, 0));
                return Shape.CONCURRENT;
            }
            case DISSEMINATION -> {
                for (int d = 1; d < n; d <<= 1) out.add(hop(t, shifted(n, d), 0, false, 0));
                return Shape.PIPELINED;
            }
        }
        throw new IllegalStateException(a.toString());
    }

    /** Every rank r sends to r + k. */
    private static int[][] shifted(int n, int k) {
        int[][] pairs = new int[n][];
        for (int r = 0; r < n; r++) pairs[r] = new int[] {r, (r + k) % n};
        return pairs;
    }

    /** Levels of the binomial tree over the order, leaves first when reducing, root first when not. */
    private void binomial(HostTopology t, int[] order, double s, boolean reduces, List<Hop> out) {
        List<Hop> levels = new ArrayList<>();
        for (int mask = 1; mask < order.length; mask <<= 1) {
            List<int[]> pairs = new ArrayList<>();
            for (int v = 0; v + mask < order.length; v += 2 * mask) pairs.add(new int[] {order[v + mask], order[v]});
            levels.add(hop(t, pairs.toArray(int[][]::new), s, reduces, 0));
        }
        if (!reduces) Collections.reverse(levels);
        out.addAll(levels);
    }

    private void halvingDoubling(HostTopology t, int[] order, double s, List<Hop> out) {
        int p = Integer.highestOneBit(order.length);
        int[] real = virtualRanks(order);
        int[][] fold = foldPairs(order);
        if (fold.length > 0) out.add(hop(t, fold, s, true, 0));
        List<Hop> doubling = new ArrayList<>();
        double part = s;
        for (int mask = p / 2; mask >= 1; mask >>= 1) {
            int[][] pairs = new int[p][];
            for (int vid = 0; vid < p; vid++) pairs[vid] = new int[] {real[vid], real[vid ^ mask]};
            part /= 2;
            out.add(hop(t, pairs, part, true, 0));
            doubling.add(0, hop(t, pairs, part, false, 0));
        }
        out.addAll(doubling);
        if (fold.length > 0) out.add(hop(t, fold, s, false, 0));
    }

    /** Fold, then log2(p) exchanges of the whole slice at distance 1, 2, ..., p/2, each reducing; then unfold. */
    private void recursiveDoubling(HostTopology t, int[] order, double s, List<Hop> out) {
        int p = Integer.highestOneBit(order.length);
        int[] real = virtualRanks(order);
        int[][] fold = foldPairs(order);
        if (fold.length > 0) out.add(hop(t, fold, s, true, 0));
        for (int mask = 1; mask < p; mask <<= 1) {
            int[][] pairs = new int[p][];
            for (int vid = 0; vid < p; vid++) pairs[vid] = new int[] {real[vid], real[vid ^ mask]};
            out.add(hop(t, pairs, s, true, 0));
        }
        if (fold.length > 0) out.add(hop(t, fold, s, false, 0));
    }

    /** The rank playing each virtual rank of the power-of-two core: the odd one of a folded pair, or a rank after them. */
    private static int[] virtualRanks(int[] order) {
        int p = Integer.highestOneBit(order.length);
        int rem = order.length - p;
        int[] real = new int[p];
        for (int vid = 0; vid < p; vid++) real[vid] = vid < rem ? order[2 * vid + 1] : order[vid + rem];
        return real;
    }

    /** The pairs (2i, 2i+1) of the order that fold into one virtual rank when n is not a power of two. */
    private static int[][] foldPairs(int[] order) {
        int rem = order.length - Integer.highestOneBit(order.length);
        int[][] fold = new int[rem][];
        for (int i = 0; i < rem; i++) fold[i] = new int[] {order[2 * i], order[2 * i + 1]};
        return fold;
    }

    private void hierarchical(HostTopology t, double s, List<Hop> out) {
        int local = t.maxRanksPerHost();
        int hosts = t.hosts();
        // Intra-host phases use link 0, the cross-host ring link 1 shared by every local rank's flow.
        for (int k = 0; k < local - 1; k++) out.add(new Hop(false, 1, s / local, true, 0));
        for (int k = 0; k < 2 * (hosts - 1); k++) out.add(new Hop(true, local, s / local / hosts, k < hosts - 1, 1));
        for (int k = 0; k < local - 1; k++) out.add(new Hop(false, 1, s / local, false, 0));
    }

    /** A step whose transfers are {@code pairs} (from, to): network if any pair crosses hosts. */
    private static Hop hop(HostTopology t, int[][] pairs, double bytes, boolean reduces, int link) {
        Map<Integer, Integer> leaving = new HashMap<>();
        for (int[] pr : pairs) {
            if (!t.sameHost(pr[0], pr[1])) leaving.merge(t.hostOf(pr[0]), 1, Integer::sum);
        }
        int flows = leaving.values().stream().mapToInt(Integer::intValue).max().orElse(1);
        return new Hop(!leaving.isEmpty(), flows, bytes, reduces, link);
    }

    private ChunkTimes.HopCost cost(Hop h, double channelBytes, int channels, long chunkBytes, int slots) {
        LinkParams l = p.link(h.net());
        double bytes = h.share() * channelBytes;
        double beta = Math.max(l.streamNsPerByte(), l.betaNsPerByte() * h.flows() * channels);
        double perByte = h.reduces() ? Math.max(beta, p.reduceNsPerByte()) : beta;
        double chunk = Math.min(chunkBytes, bytes);
        double chunkNs = l.chunkOverheadNs() + chunk * perByte;
        double roundTrip = chunkNs + 2 * l.alphaNs() + (h.reduces() ? chunk * p.reduceNsPerByte() : 0);
        return new ChunkTimes.HopCost(l.alphaNs(), chunkNs, Math.max(1, Math.ceil(bytes / chunkBytes)), roundTrip, slots, h.link());
    }

    private double time(Route route, double channelBytes, int channels, long chunkBytes, int slots) {
        List<Hop> hops = route.hops();
        if (hops.isEmpty()) return 0;
        List<ChunkTimes.HopCost> costs = hops.stream().map(h -> cost(h, channelBytes, channels, chunkBytes, slots)).toList();
        double alphas = costs.stream().mapToDouble(ChunkTimes.HopCost::alphaNs).sum();
        double allChunks = costs.stream().mapToDouble(c -> c.chunkNs() + c.restNs()).sum();
        return switch (route.shape()) {
            case PIPELINED -> {
                double chain = 0;
                for (List<Leg> legs : route.chains()) {
                    double t = 0;
                    for (Leg g : legs) {
                        ChunkTimes.HopCost c = cost(g.hop(), channelBytes, channels, chunkBytes, slots);
                        t += g.count() * (c.alphaNs() + c.chunkNs());
                    }
                    chain = Math.max(chain, t);
                }
                double fill = chain + costs.stream().mapToDouble(ChunkTimes.HopCost::restNs).max().orElse(0);
                yield Math.max(fill, ChunkTimes.load(costs, route.onePeerPerLink()));
            }
            case STORE_AND_FORWARD -> alphas + allChunks;
            case CONCURRENT -> costs.stream().mapToDouble(ChunkTimes.HopCost::alphaNs).max().orElse(0) + allChunks;
        };
    }
}
