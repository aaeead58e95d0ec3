package dev.jccl.bootstrap;

import java.util.Map;
import java.util.Objects;

/**
 * Where this process sits in its job: its rank among all ranks and on its node, which node, and
 * where the rendezvous store lives. Read from the launcher's environment variables by
 * {@link #detect(Map)}, or built directly by code that knows better.
 *
 * @param rank           this process's rank, in [0, worldSize)
 * @param worldSize      ranks in the job
 * @param localRank      rank among the processes on this node, in [0, localWorldSize)
 * @param localWorldSize processes on this node
 * @param nodeRank       index of this node in the job
 * @param masterAddr     host of the rendezvous store
 * @param masterPort     port of the rendezvous store; 0 only for a single-process job
 * @param launcher       which launcher's variables these came from
 */
public record LaunchEnvironment(int rank, int worldSize, int localRank, int localWorldSize, int nodeRank,
                                String masterAddr, int masterPort, Launcher launcher) {
    /** The launcher whose variables gave the rank. */
    public enum Launcher {
        /** torchrun-style RANK, WORLD_SIZE, ...: set by torchrun, by {@code jccl launch}, or by hand. */
        TORCHRUN,
        /** SLURM_PROCID, SLURM_NTASKS, ... of an {@code srun} step. */
        SLURM,
        /** OMPI_COMM_WORLD_* of {@code mpirun}. */
        OPEN_MPI,
        /** No launcher variables at all: one process, rank 0 of 1. */
        SINGLE_PROCESS
    }

    public LaunchEnvironment {
        Objects.requireNonNull(launcher, "launcher");
        if (worldSize < 1) throw bad("world size " + worldSize + " must be at least 1");
        if (rank < 0 || rank >= worldSize) throw bad("rank " + rank + " outside [0, " + worldSize + ")");
        if (localWorldSize < 1 || localWorldSize > worldSize) {
            throw bad("local world size " + localWorldSize + " outside [1, world size " + worldSize + "]");
        }
        if (localRank < 0 || localRank >= localWorldSize) throw bad("local rank " + localRank + " outside [0, " + localWorldSize + ")");
        if (nodeRank < 0 || nodeRank >= worldSize) throw bad("node rank " + nodeRank + " outside [0, " + worldSize + ")");
        if (masterAddr == null || masterAddr.isBlank()) throw bad("master address is empty");
        if (masterPort < 0 || masterPort > 65535) throw bad("master port " + masterPort + " outside [0, 65535]");
        if (masterPort == 0 && worldSize > 1) throw bad("master port 0 cannot be found by " + worldSize + " ranks; give a real port");
    }

    /**
     * Reads the launcher variables from {@code env}. Precedence: explicit torchrun-style variables
     * (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, GROUP_RANK/NODE_RANK, MASTER_ADDR,
     * MASTER_PORT) win field by field; then Open MPI's (innermost: mpirun inside a SLURM allocation
     * inherits the allocation's SLURM variables); then SLURM's. No variables at all means a single
     * process. Missing, non-numeric or inconsistent values throw {@link LaunchEnvironmentException}
     * naming the variable.
     */
    public static LaunchEnvironment detect(Map<String, String> env) {
        return new LaunchVariables(env).resolve();
    }

    /** {@link #detect(Map)} over this process's environment. */
    public static LaunchEnvironment fromSystem() {
        return detect(System.getenv());
    }

    /** Rank 0 of 1 on the loopback, with no store to reach. */
    public static LaunchEnvironment singleProcess() {
        return new LaunchEnvironment(0, 1, 0, 1, 0, "127.0.0.1", 0, Launcher.SINGLE_PROCESS);
    }

    /** For logs: "rank 2/8 (local 0/4, node 1) via SLURM, store 10.0.0.1:29500". */
    public String describe() {
        return "rank " + rank + "/" + worldSize + " (local " + localRank + "/" + localWorldSize + ", node " + nodeRank
                + ") via " + launcher + ", store " + masterAddr + ":" + masterPort;
    }

    private static LaunchEnvironmentException bad(String what) {
        return new LaunchEnvironmentException("inconsistent launch environment: " + what);
    }
}
