package dev.jccl.testkit;

import dev.jccl.verbs.Device;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.VerbsProvider;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * N ranks of one provider in one JVM, as threads: each rank opens its own context, and the ranks are
 * linked by RC queue pairs in a ring or a full mesh, their connection info exchanged in memory.
 * {@link #run} executes a body on every rank under {@link RankRunner}'s hang guard.
 *
 * <pre>{@code
 * try (RankHarness h = RankHarness.open(target, 4, RankHarness.Topology.RING, RankHarness.Options.DEFAULT)) {
 *     h.run(rank -> { ... rank.qp(rank.right()).postSend(...); ... });
 * }
 * }</pre>
 */
public final class RankHarness implements AutoCloseable {
    public enum Topology {
        /** Each rank to its left and right neighbour. */
        RING,
        /** Each rank to every other rank. */
        FULL_MESH;

        TreeSet<Integer> peersOf(int rank, int size) {
            TreeSet<Integer> peers = new TreeSet<>();
            if (this == FULL_MESH) {
                for (int p = 0; p < size; p++) peers.add(p);
            } else {
                peers.add((rank + 1) % size);
                peers.add((rank - 1 + size) % size);
            }
            peers.remove(rank);
            return peers;
        }
    }

    /** Queue sizes per rank and the bound on connecting and on each {@link #run}. */
    public record Options(int cqDepth, int sendDepth, int recvDepth, long timeoutNs) {
        public static final Options DEFAULT = new Options(1024, 64, 64, TimeUnit.SECONDS.toNanos(60));

        public Options withTimeoutNs(long ns) {
            return new Options(cqDepth, sendDepth, recvDepth, ns);
        }
    }

    /** What each rank runs. */
    @FunctionalInterface
    public interface RankBody {
        void run(Rank rank) throws Exception;
    }

    private final List<Rank> ranks;
    private final long timeoutNs;

    private RankHarness(List<Rank> ranks, long timeoutNs) {
        this.ranks = ranks;
        this.timeoutNs = timeoutNs;
    }

    /** Opens {@code size} contexts, links them, and connects every link. Skips if the target cannot run. */
    public static RankHarness open(ProviderTarget target, int size, Topology topology, Options options) {
        if (size < 1) throw new IllegalArgumentException("need at least one rank, got " + size);
        VerbsProvider provider = target.requireUsable();
        Device device = target.activeDevice(provider);
        RankBoard board = new RankBoard();
        List<Rank> ranks = new ArrayList<>(size);
        RankHarness harness = new RankHarness(ranks, options.timeoutNs());
        try {
            for (int r = 0; r < size; r++) {
                Endpoint end = Endpoint.open("rank " + r, provider, device, target.config(), options.cqDepth());
                SortedMap<Integer, QueuePair> links = new TreeMap<>();
                ranks.add(new Rank(r, size, end, links, board, options.timeoutNs()));
                for (int peer : topology.peersOf(r, size)) links.put(peer, end.createQp(options.sendDepth(), options.recvDepth()));
            }
            harness.run(Rank::connect);
        } catch (RuntimeException | Error e) {
            try {
                harness.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return harness;
    }

    public int size() {
        return ranks.size();
    }

    public Rank rank(int r) {
        return ranks.get(r);
    }

    /** Runs {@code body} on every rank at once; fails naming the first rank that failed or hung. */
    public void run(RankBody body) {
        RankRunner.run(ranks.size(), timeoutNs, r -> body.run(ranks.get(r)));
    }

    /** Closes every rank's context, reporting the first failure after trying them all. */
    @Override
    public void close() {
        RuntimeException first = null;
        for (Rank r : ranks) {
            try {
                r.endpoint().close();
            } catch (RuntimeException e) {
                if (first == null) first = e;
                else first.addSuppressed(e);
            }
        }
        if (first != null) throw first;
    }
}
