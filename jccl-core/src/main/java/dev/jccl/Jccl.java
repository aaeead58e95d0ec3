package dev.jccl;

import dev.jccl.comm.CommFactory;

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
}
