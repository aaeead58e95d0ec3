package dev.jccl.comm;

import dev.jccl.util.Sizes;
import dev.jccl.trace.DataPathCounters;
import dev.jccl.DataType;
import dev.jccl.algo.CollectiveArgs;
import dev.jccl.algo.CostParams;
import dev.jccl.algo.HostTopology;
import dev.jccl.algo.LinkParams;
import dev.jccl.algo.Placement;
import dev.jccl.algo.Protocol;
import dev.jccl.algo.Plan;
import dev.jccl.algo.Schedules;
import dev.jccl.algo.TuneRequest;
import dev.jccl.algo.Tuner;
import dev.jccl.algo.TunerOverrides;
import dev.jccl.exec.ChannelProgram;
import dev.jccl.exec.FifoDescriptor;
import dev.jccl.exec.LlRun;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;

/**
 * The tuner's plan and the compiled channel programs of each distinct call, cached per
 * (operation, count, type, root or peer, in place): a training loop asks the tuner once per bucket
 * shape, and logs the choice and its reason once (JCCL_DEBUG=INFO). Used by the progress thread only.
 *
 * <p>The cache is an open-addressed table probed with the call's fields as they are, rather than a
 * map keyed by a record, so that a hit (every call of a training loop) builds no key object.
 */
final class PlanCache {
    /** {@code lowLatency}: the one program runs on the LL protocol ({@link LlRun}). */
    record Compiled(Plan plan, ChannelProgram[] programs, long chunkElems, boolean lowLatency) {}

    private static final class Entry {
        final OpKind kind;
        final long count;
        final DataType type;
        final int rootOrPeer;
        final boolean inPlace;
        final Compiled compiled;

        Entry(OpKind kind, long count, DataType type, int rootOrPeer, boolean inPlace, Compiled compiled) {
            this.kind = kind;
            this.count = count;
            this.type = type;
            this.rootOrPeer = rootOrPeer;
            this.inPlace = inPlace;
            this.compiled = compiled;
        }

        boolean is(OpKind k, long n, DataType t, int r, boolean p) {
            return kind == k && count == n && type == t && rootOrPeer == r && inPlace == p;
        }
    }

    /** Channel slices are multiples of a cache line, so channels never share one. */
    private static final int GRAIN_BYTES = 64;

    private final int rank;
    private final HostTopology topology;
    private final TunerOverrides overrides;
    private final FifoDescriptor fifo;
    private final CostParams costs;
    private final Protocol forcedProtocol;
    /** Whether large allreduces take {@link #WIDE_SHM} ({@link #wideShm}). */
    private final boolean wideShm;
    /** Whether traffic to a peer goes over a provider that keeps aligned 8-byte words whole (LL's premise). */
    private final java.util.function.IntPredicate llProvider;
    private Entry[] table = new Entry[64]; // a power of two, at most half full
    private int entries;

    PlanCache(int rank, HostTopology topology, TunerOverrides overrides, FifoDescriptor fifo, Protocol forcedProtocol,
              java.util.function.IntPredicate llProvider, boolean shmHere) {
        this.forcedProtocol = forcedProtocol;
        this.llProvider = llProvider;
        this.rank = rank;
        this.topology = topology;
        this.overrides = overrides;
        this.fifo = fifo;
        this.costs = costParams(coresPerRank(topology, shmHere, Runtime.getRuntime().availableProcessors()));
        this.wideShm = wideShm(topology, shmHere);
    }

    /**
     * The tuner's defaults, except:
     * <ul>
     *   <li>shared-memory channels add no bandwidth: every chunk of every channel is copied and
     *       reduced by this rank's one progress thread, so a second shm channel only splits the same
     *       thread's time;</li>
     *   <li>tcp channels add sockets and their sender and receiver threads, which help only on cores
     *       the rank has to itself: at most {@code coresPerRank} channels (at least one; see
     *       {@link #coresPerRank}, unbounded where every link is shm). With 2 ranks
     *       on 2 cores a second channel's threads waited for a core the callers kept busy: one
     *       channel ran 4-32 MiB 25-50% faster over tcp (3 interleaved rounds).</li>
     * </ul>
     */
    static CostParams costParams(int coresPerRank) {
        CostParams d = CostParams.defaults();
        LinkParams shm = d.shm();
        LinkParams oneThread = new LinkParams(shm.alphaNs(), shm.streamNsPerByte(), shm.streamNsPerByte(), shm.chunkOverheadNs());
        return new CostParams(oneThread, d.net(), d.reduceNsPerByte(), d.channelOverheadNs(), Math.clamp(coresPerRank, 1, d.maxChannels()));
    }

    /**
     * From {@link #WIDE_SHM_BYTES}, an allreduce of two ranks on one host over shm runs on
     * at least 4 channels, where the model (shm channels add no bandwidth, above) would keep 1-2. Measured,
     * not modelled: 2 ranks on 2 cores, median µs per call, interleaved rounds with Open MPI's shm:
     * 2 MiB 254-287 on 4 channels (recursive doubling) against 125-502 on the tuner's 1 (ring; Open MPI
     * 251-363), 4 MiB 500-625 against 470-823 on 2 (Open MPI 565-769); a second grid of six rounds agreed
     * (2 MiB 242-457 against 385-559, 4 MiB 464-853 against 783-1,430). 4 channels lose to the fast
     * placement of the virtual cores (the tuner's 1 channel at 2 MiB ran 125 µs in one round in four) but
     * win the slow one, and never lost to Open MPI by more than 10%. At 1 MiB they were slower (193-241
     * against 129-238), and with 4 ranks on 2 cores too (4 MiB 2.3-6.2 ms against 1.7), so neither qualifies.
     * The host's cores are not asked: every rank must plan alike, and each sees only its own process's cores.
     */
    static boolean wideShm(HostTopology topology, boolean shmHere) {
        return topology.nranks() == 2 && topology.hosts() == 1 && shmHere;
    }

    static final long WIDE_SHM_BYTES = 2L << 20;
    static final Tuner.ChannelFloor WIDE_SHM = new Tuner.ChannelFloor(4, "2 ranks on one host over shm, from 2 MiB (measured)");

    /**
     * The cores each rank of the busiest host has to itself where some link is a socket's (ranks on
     * other hosts, or no shm here), else no bound: shm channels add no threads, and on one host a
     * shm ring ran its large calls on the tuner's 4 channels.
     */
    static int coresPerRank(HostTopology topology, boolean shmHere, int cores) {
        boolean sockets = topology.hosts() > 1 || !shmHere;
        return sockets ? cores / Math.max(1, topology.maxRanksPerHost()) : Integer.MAX_VALUE;
    }

    Compiled get(OpKind kind, long count, DataType type, int rootOrPeer, boolean inPlace) {
        int mask = table.length - 1;
        for (int i = hash(kind, count, type, rootOrPeer, inPlace) & mask; table[i] != null; i = (i + 1) & mask) {
            if (table[i].is(kind, count, type, rootOrPeer, inPlace)) return table[i].compiled;
        }
        Compiled c = kind.pointToPoint() ? pointToPoint(kind, count, type, rootOrPeer) : collective(kind, count, type, rootOrPeer, inPlace);
        if (2 * (entries + 1) > table.length) grow();
        insert(new Entry(kind, count, type, rootOrPeer, inPlace, c));
        entries++;
        return c;
    }

    private static int hash(OpKind kind, long count, DataType type, int rootOrPeer, boolean inPlace) {
        long h = count * 0x9E3779B97F4A7C15L + kind.ordinal() * 31L + (type == null ? 7 : type.ordinal()) * 131L
                + rootOrPeer * 8191L + (inPlace ? 1 : 0);
        return (int) (h ^ (h >>> 29));
    }

    private void insert(Entry e) {
        int mask = table.length - 1;
        int i = hash(e.kind, e.count, e.type, e.rootOrPeer, e.inPlace) & mask;
        while (table[i] != null) i = (i + 1) & mask;
        table[i] = e;
    }

    private void grow() {
        Entry[] old = table;
        table = new Entry[old.length * 2];
        for (Entry e : old) if (e != null) insert(e);
    }

    private Compiled pointToPoint(OpKind kind, long count, DataType type, int peer) {
        long chunk = fifo.maxChunkElems(type.byteSize());
        ChannelProgram p = kind == OpKind.SEND ? ChannelProgram.send(peer, count, chunk) : ChannelProgram.recv(peer, count, chunk);
        return new Compiled(null, new ChannelProgram[] {p}, chunk, false);
    }

    private Compiled collective(OpKind kind, long count, DataType type, int root, boolean inPlace) {
        int n = topology.nranks();
        CollectiveArgs args = kind.rooted() ? CollectiveArgs.rooted(kind.collective(), count, root) : CollectiveArgs.of(kind.collective(), count);
        long bytes = switch (kind) {
            case REDUCE_SCATTER, ALL_GATHER, ALL_TO_ALL -> type.bytes(count) * n;
            case BARRIER -> 0;
            default -> type.bytes(count);
        };
        Tuner.ChannelFloor floor = wideShm && kind == OpKind.ALL_REDUCE && bytes >= WIDE_SHM_BYTES ? WIDE_SHM : Tuner.ChannelFloor.NONE;
        Plan plan = Tuner.plan(new TuneRequest(kind.collective(), bytes, topology), costs, overrides, floor);
        long chunkBytes = Math.min(plan.chunkBytes(), fifo.slotBytes());
        long chunkElems = Math.max(1, chunkBytes / type.byteSize());
        Placement placement = inPlace ? Placement.inPlace(args, rank) : Placement.DISTINCT;
        long grain = Math.max(1, GRAIN_BYTES / type.byteSize());
        Protocol.Choice proto = kind == OpKind.ALL_REDUCE ? lowLatency(plan, args, type, placement, grain)
                : new Protocol.Choice(Protocol.SIMPLE, "protocol Simple");
        boolean ll = proto.protocol() == Protocol.LL;
        ChannelProgram[] programs = new ChannelProgram[ll ? 1 : plan.channels()];
        if (ll) chunkElems = Math.max(1, count); // one message per step
        for (int c = 0; c < programs.length; c++) {
            var schedule = Schedules.build(plan.algorithm(), args, topology, rank, c, programs.length, grain);
            programs[c] = ChannelProgram.compile(c, schedule, chunkElems, placement);
        }
        // A forced algorithm meant for this collective that cannot run here (topology) is replaced:
        // say so where it is seen by default. One that does not implement it at all is not a
        // mistake for this call (JCCL_ALGO=ring also covers barriers), so that stays at INFO.
        boolean overridden = overrides.algorithms().stream().anyMatch(a -> a.implementsCollective(kind.collective()))
                && !overrides.algorithms().contains(plan.algorithm());
        Log.at(overridden && rank == 0 ? Log.Level.WARN : Log.Level.INFO, Subsys.COLL, "rank %d: %s (%d x %s%s): %s; %s", rank,
                kind.apiName(), count, type.ncclName(), inPlace ? ", in place" : "", plan.why(), proto.why());
        DataPathCounters.plan(String.format(java.util.Locale.ROOT, "%s %s, %d channel(s), chunk %s%s", kind.apiName(),
                plan.algorithm().knobName(), programs.length, Sizes.formatBytes(chunkElems * type.byteSize()), ll ? ", LL" : ""));
        return new Compiled(plan, programs, chunkElems, ll);
    }

    /** The protocol of an allreduce: LL where the tuner's size rule or JCCL_PROTO wants it and it can run here. */
    private Protocol.Choice lowLatency(Plan plan, CollectiveArgs args, DataType type, Placement placement, long grain) {
        String cannot = fifo.checksummed() ? "JCCL_CHECKSUM checks Simple chunks only" : null;
        boolean smallAlgorithm = plan.algorithm() == dev.jccl.algo.Algorithm.RECURSIVE_DOUBLING || plan.algorithm() == dev.jccl.algo.Algorithm.TREE;
        if (cannot == null && smallAlgorithm && plan.bytes() <= Protocol.LL_MAX_BYTES) {
            var schedule = Schedules.build(plan.algorithm(), args, topology, rank, 0, 1, grain);
            ChannelProgram p = ChannelProgram.compile(0, schedule, Math.max(1, args.count()), placement);
            cannot = LlRun.whyNot(p, type.byteSize());
            // Every rank must choose alike, and each sees only its own peers' providers: across hosts
            // some ranks would have only shm peers and others a tcp one. So LL runs within one host.
            if (cannot == null && topology.hosts() > 1) cannot = "ranks on " + topology.hosts() + " hosts (LL runs within one host)";
            for (int peer : p.peers()) if (cannot == null && !llProvider.test(peer)) cannot = "the provider to rank " + peer + " is not shm";
        }
        return Protocol.choose(plan.collective(), plan.bytes(), plan.algorithm(), forcedProtocol, cannot);
    }
}
