package dev.jccl.comm;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.algo.Algorithm;
import dev.jccl.algo.Collective;
import dev.jccl.algo.TunerOverrides;
import dev.jccl.bootstrap.MemoryStore;
import dev.jccl.bootstrap.PeerExchange;
import dev.jccl.bootstrap.PrefixStore;
import dev.jccl.bootstrap.Rendezvous;
import dev.jccl.bootstrap.Store;
import dev.jccl.bootstrap.TcpStoreClient;
import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.exec.FifoDescriptor;
import dev.jccl.exec.Kernels;
import dev.jccl.trace.Log;
import dev.jccl.trace.Timeline;
import dev.jccl.trace.Subsys;
import dev.jccl.util.Sizes;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Makes a communicator: every rank tells every other its host id and usable providers through a
 * store all-gather, and gets the runtime (engine, progress thread) built around that. The one
 * entry the public API calls into this package.
 */
public final class CommFactory {
    /**
     * Providers whose writes keep every aligned 8-byte word whole, which the LL protocol relies on
     * (see exec.LlLane): shm only. tcp places a frame with copies that start wherever a socket read
     * ended, so a vectorized copy may store a line's flag half before its data half.
     */
    private static final java.util.Set<String> LL_PROVIDERS = java.util.Set.of("shm");

    private static final int RECORDER_ENTRIES = 32;

    private CommFactory() {}

    /** {@code Jccl.init()}: the launcher's environment and the process's knobs; owns the rendezvous. */
    public static Communicator fromEnvironment() {
        Config config = Config.fromEnvironment();
        Log.configure(config);
        Rendezvous rv = Rendezvous.fromEnvironment();
        try {
            int rank = rv.environment().rank();
            Config net = SocketInterface.forStore(config, rv.environment().masterAddr());
            return create(rv.store(), rv, rank, rv.environment().worldSize(), net, "jccl", rankTimeline(config, rank));
        } catch (RuntimeException e) {
            rv.close();
            throw e;
        }
    }

    /** {@code Jccl.networkConfig}: {@code config} as a communicator whose store is at {@code storeHost} runs with it. */
    public static Config networkConfig(Config config, String storeHost) {
        return SocketInterface.forStore(config, storeHost);
    }

    /** {@code Jccl.init(options)}: the store or rendezvous stays the caller's. */
    public static Communicator fromOptions(CommOptions options) {
        Config config = options.readEnvironment() ? Config.fromEnvironment(options.knobs()) : Config.of(options.knobs());
        Log.setRank(options.rank());
        Log.configure(config);
        String storeHost = options.rendezvous() != null ? options.rendezvous().environment().masterAddr()
                : options.store() instanceof TcpStoreClient c ? c.endpoint().substring(0, c.endpoint().lastIndexOf(':')) : null;
        return create(options.store(), null, options.rank(), options.size(), SocketInterface.forStore(config, storeHost),
                options.namespace(),
                rankTimeline(config, options.rank()));
    }

    /**
     * Blocks until all {@code size} ranks have called it with the same {@code namespace} (at most
     * JCCL_TIMEOUT).
     *
     * @param store     the store every rank shares; keys go under {@code namespace}
     * @param owned     closed with the communicator (the rendezvous of {@code Jccl.init()}), or null
     * @param timeline  where the runtime records (JCCL_TRACE), written to this rank's file at close
     */
    static Communicator create(Store store, AutoCloseable owned, int rank, int size, Config config, String namespace,
                               Timeline timeline) {
        long timeoutNs = config.get(Knobs.TIMEOUT_NS);
        long sliceNs = Math.clamp(timeoutNs / 20, 10_000_000L, 250_000_000L);
        Store ns = new PrefixStore(store, namespace);
        PeerExchange exchange = new PeerExchange(ns, rank, size, timeoutNs);
        String hostId = hostId(config);
        Hello mine = new Hello(hostId, !config.get(Knobs.TRANSPORT).isBlank(), Transports.localitiesHere(config));
        List<Hello> hellos = new ArrayList<>();
        List<byte[]> hello = exchange.allGather("hello", mine.encode());
        for (int r = 0; r < size; r++) hellos.add(Hello.decode(hello.get(r), r));
        List<String> hostOf = hellos.stream().map(Hello::hostId).toList();
        List<String> providers = List.copyOf(mine.localityByProvider().keySet());
        Membership who = Membership.of(rank, hostOf);

        long buffBytes = config.get(Knobs.BUFFSIZE);
        boolean buffDefault = config.entry(Knobs.BUFFSIZE).source() == Config.Source.DEFAULT;
        FifoDescriptor fifo = FifoDescriptor.of(buffBytes, config.get(Knobs.CHUNKSIZE)).withChecksums(config.get(Knobs.CHECKSUM));
        TunerOverrides overrides = TunerOverrides.fromKnobs(config.get(Knobs.ALGO), config.get(Knobs.NCHANNELS),
                config.get(Knobs.CHUNKSIZE), buffDefault ? 0 : buffBytes);
        Kernels kernels = Kernels.select(config.get(Knobs.REDUCE_KERNEL));
        Transports transports = new Transports(config, rank, hellos);
        LinkTable links = new LinkTable(rank, size, ns, transports, fifo, timeoutNs, sliceNs);
        links.directReads(config.get(Knobs.DIRECT));
        PlanCache plans = new PlanCache(rank, who.topology(), overrides, fifo, dev.jccl.algo.Protocol.parse(config.get(Knobs.PROTO)),
                peer -> LL_PROVIDERS.contains(transports.choose(peer)), providers.contains("shm"));
        Scratch scratch = new Scratch();
        Failures failures = new Failures(rank, size, timeoutNs, new AbortBoard(ns, rank, size), links,
                new FlightRecorder(RECORDER_ENTRIES, rank, size), hostOf, !(store instanceof MemoryStore));
        OpQueue ops = new OpQueue(new RunBuilder(size, plans, links, scratch, kernels, timeline), failures::checkBoard);
        CommEngine engine = new CommEngine("jccl-progress-" + namespace.replace('/', '-') + "-r" + rank,
                new CommEngine.Resources(transports, links, scratch, timeline), ops, failures,
                config.waitPolicy(who.localSize()));
        Log.info(Subsys.INIT, "rank %d/%d (%s): host %s, local rank %d of %d, %s; providers %s; FIFO %d x %s per link; kernels %s",
                rank, size, namespace, hostId, who.localRank(), who.localSize(), who.topology().describe(), providers,
                fifo.slotCount(), Sizes.formatBytes(fifo.slotBytes()), kernels.description());
        CloseHandshake closing = new CloseHandshake(ns, rank, size, timeoutNs, sliceNs);
        return new CommunicatorImpl(who, engine, scratch, config, store, namespace, exchange, closing, owned, timeoutNs);
    }

    /**
     * JCCL_TRACE: chunk transfers and reductions go on the process-wide timeline of {@code rank}, the
     * one the layers above (the demo's training loop) record into too. A split communicator records
     * into its parent's, so one rank of the world never writes two files, nor another rank's.
     */
    private static Timeline rankTimeline(Config config, int rank) {
        return config.get(Knobs.TRACE).isEmpty() ? Timeline.DISABLED : Timeline.registered(rank);
    }

    /** JCCL_HOST_ID, else the host name. */
    static String hostId(Config config) {
        String configured = config.get(Knobs.HOST_ID);
        if (!configured.isBlank()) return configured.trim();
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }

    /** {@code Jccl.algorithmsFor}: the schedules' own table, so no tool keeps a copy of it. */
    public static List<String> algorithmsFor(String collective) {
        for (Collective c : Collective.values()) {
            if (c.apiName().equals(collective)) return Algorithm.implementing(c).stream().map(Algorithm::knobName).toList();
        }
        throw new IllegalArgumentException("unknown collective '" + collective + "'; expected one of "
                + Arrays.stream(Collective.values()).map(Collective::apiName).toList());
    }

    /** {@code Jccl.parseAlgorithms}: as {@link TunerOverrides#fromKnobs} reads JCCL_ALGO. */
    public static List<String> parseAlgorithms(String algoList) {
        return Algorithm.parseList(algoList).stream().map(Algorithm::knobName).toList();
    }
}
