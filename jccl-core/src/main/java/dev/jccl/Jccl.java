package dev.jccl;

import dev.jccl.bootstrap.Rendezvous;
import dev.jccl.comm.CommFactory;
import dev.jccl.config.Config;
import dev.jccl.trace.Log;

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
        Config config = Config.fromEnvironment();
        Log.configure(config);
        Rendezvous rv = Rendezvous.fromEnvironment();
        try {
            return CommFactory.create(rv.store(), rv, rv.environment().rank(), rv.environment().worldSize(), config, "jccl");
        } catch (RuntimeException e) {
            rv.close();
            throw e;
        }
    }

    /** Joins with explicit options; see {@link CommOptions}. The store or rendezvous stays the caller's. */
    public static Communicator init(CommOptions options) {
        Config config = options.readEnvironment() ? Config.fromEnvironment(options.knobs()) : Config.of(options.knobs());
        Log.configure(config);
        return CommFactory.create(options.store(), null, options.rank(), options.size(), config, options.namespace());
    }
}
