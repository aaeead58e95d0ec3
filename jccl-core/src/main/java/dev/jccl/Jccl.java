package dev.jccl;

import dev.jccl.comm.CommFactory;
import dev.jccl.config.Config;

import java.util.List;

/**
 * Entry point: makes the world communicator of this process.
 *
 * <pre>{@code
 * try (Communicator comm = Jccl.init()) {
 *     comm.allReduce(gradients, count, DataType.FLOAT32, ReduceOp.SUM).await();
 * }
 * }</pre>
 */
public final class Jccl {
    private Jccl() {}

    /**
     * Joins the job the launcher described (torchrun-style RANK/WORLD_SIZE/MASTER_ADDR/MASTER_PORT,
     * SLURM or Open MPI variables; a lone process is rank 0 of 1), with every knob read from the
     * environment. Blocks until every rank has joined, at most JCCL_TIMEOUT.
     */
    public static Communicator init() {
        return CommFactory.fromEnvironment();
    }

    /** Joins with explicit options; see {@link CommOptions}. The store or rendezvous stays the caller's. */
    public static Communicator init(CommOptions options) {
        return CommFactory.fromOptions(options);
    }

    /**
     * {@code config} as a communicator whose store is at {@code storeHost} runs with it: an unset
     * JCCL_SOCKET_IFNAME becomes the address of the interface that routes to the store when the
     * store is not on loopback (a job across hosts), as the runtime chooses it. Tools that report
     * the tcp interface (jccl doctor, topo) read it here, so they say what the ranks really bind.
     */
    public static Config networkConfig(Config config, String storeHost) {
        return CommFactory.networkConfig(config, storeHost);
    }

    /**
     * The JCCL_ALGO names of the algorithms that implement {@code collective}, named as this API
     * names its calls (allReduce, reduceScatter, allGather, broadcast, reduce, allToAll, barrier), in
     * the order the tuner prefers them on a tie. A tool can refuse a forced algorithm before any rank starts.
     */
    public static List<String> algorithmsFor(String collective) {
        return CommFactory.algorithmsFor(collective);
    }

    /**
     * The algorithm names of a JCCL_ALGO value, each once, read as the knob reads them (any case,
     * '-' for '_'); an unknown name fails with the knob's own message, which lists the known ones.
     */
    public static List<String> parseAlgorithms(String algoList) {
        return CommFactory.parseAlgorithms(algoList);
    }
}
