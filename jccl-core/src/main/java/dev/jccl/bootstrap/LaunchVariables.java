package dev.jccl.bootstrap;

import dev.jccl.bootstrap.LaunchEnvironment.Launcher;

import java.util.Map;

/**
 * Turns launcher environment variables into a {@link LaunchEnvironment}, remembering which variable
 * each value came from so that every complaint names it ("RANK=4 must be below WORLD_SIZE=4").
 */
final class LaunchVariables {
    /** A value and the variable (or rule) it came from. */
    private record Named(int value, String source) {
        @Override
        public String toString() {
            return source + "=" + value;
        }
    }

    /** SLURM gives no store port; derive one from the job id, below Linux's ephemeral range. */
    static final int SLURM_PORT_BASE = 10_000;
    static final int SLURM_PORT_SPAN = 20_000;

    private final Map<String, String> env;
    private final boolean openMpi;
    private final boolean slurm;

    LaunchVariables(Map<String, String> env) {
        this.env = env;
        this.openMpi = has("OMPI_COMM_WORLD_RANK");
        this.slurm = has("SLURM_PROCID");
    }

    LaunchEnvironment resolve() {
        Launcher launcher = has("RANK") ? Launcher.TORCHRUN : openMpi ? Launcher.OPEN_MPI
                : slurm ? Launcher.SLURM : Launcher.SINGLE_PROCESS;
        Named rank;
        Named world;
        switch (launcher) {
            case TORCHRUN -> {
                rank = integer("RANK");
                world = requiredWith("WORLD_SIZE", "RANK");
            }
            case OPEN_MPI -> {
                rank = integer("OMPI_COMM_WORLD_RANK");
                world = requiredWith("OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK");
            }
            case SLURM -> {
                rank = integer("SLURM_PROCID");
                world = has("SLURM_NTASKS") ? integer("SLURM_NTASKS") : requiredWith("SLURM_NPROCS", "SLURM_PROCID");
            }
            default -> {
                if (has("WORLD_SIZE")) throw missing("RANK", "WORLD_SIZE");
                rank = new Named(0, "(single process) rank");
                world = new Named(1, "(single process) world size");
            }
        }
        if (world.value() < 1) throw bad(world + " must be at least 1");
        if (rank.value() < 0 || rank.value() >= world.value()) throw bad(rank + " must be in [0, " + world + ")");

        Named localRank = first("LOCAL_RANK", openMpi ? "OMPI_COMM_WORLD_LOCAL_RANK" : null, slurm ? "SLURM_LOCALID" : null);
        Named localWorld = has("LOCAL_WORLD_SIZE") ? integer("LOCAL_WORLD_SIZE")
                : openMpi && has("OMPI_COMM_WORLD_LOCAL_SIZE") ? integer("OMPI_COMM_WORLD_LOCAL_SIZE")
                : slurm ? slurmTasksOnThisNode() : null;
        if (localRank == null && localWorld == null) {
            // Nothing says otherwise: every rank shares this node.
            localRank = new Named(rank.value(), "(one node) " + rank.source());
            localWorld = new Named(world.value(), "(one node) " + world.source());
        } else if (localWorld == null) {
            throw missing("LOCAL_WORLD_SIZE", localRank.source());
        } else if (localRank == null) {
            throw missing("LOCAL_RANK", localWorld.source());
        }
        if (localWorld.value() < 1 || localWorld.value() > world.value()) throw bad(localWorld + " must be in [1, " + world + "]");
        if (localRank.value() < 0 || localRank.value() >= localWorld.value()) throw bad(localRank + " must be in [0, " + localWorld + ")");

        Named nodeRank = first("GROUP_RANK", "NODE_RANK", slurm ? "SLURM_NODEID" : null);
        if (nodeRank == null) {
            // Ranks placed in blocks of LOCAL_WORLD_SIZE, the default of torchrun and mpirun --map-by slot.
            nodeRank = new Named(rank.value() / localWorld.value(), "(derived " + rank.source() + " / " + localWorld.source() + ")");
        }
        if (nodeRank.value() < 0 || nodeRank.value() >= world.value()) throw bad(nodeRank + " must be in [0, " + world + ")");

        boolean oneNode = localWorld.value() == world.value();
        String masterAddr = masterAddr(oneNode, world, localWorld);
        int masterPort = masterPort(world);
        return new LaunchEnvironment(rank.value(), world.value(), localRank.value(), localWorld.value(), nodeRank.value(),
                masterAddr, masterPort, launcher);
    }

    private String masterAddr(boolean oneNode, Named world, Named localWorld) {
        String addr = env.get("MASTER_ADDR");
        if (addr != null) {
            if (addr.isBlank()) throw bad("MASTER_ADDR is empty");
            return addr.trim();
        }
        if (slurm) {
            String list = has("SLURM_JOB_NODELIST") ? "SLURM_JOB_NODELIST" : has("SLURM_NODELIST") ? "SLURM_NODELIST" : null;
            if (list != null) return SlurmLists.firstHost(list, env.get(list));
        }
        if (oneNode) return "127.0.0.1";
        throw new LaunchEnvironmentException("MASTER_ADDR is not set and the " + world.value()
                + " ranks span several nodes (" + localWorld + "); set it to the host of rank 0");
    }

    private int masterPort(Named world) {
        if (has("MASTER_PORT")) {
            int port = integer("MASTER_PORT").value();
            int min = world.value() == 1 ? 0 : 1;
            if (port < min || port > 65535) throw bad("MASTER_PORT=" + port + " must be in [" + min + ", 65535]");
            return port;
        }
        if (slurm && has("SLURM_JOB_ID")) {
            return SLURM_PORT_BASE + Math.floorMod(longInteger("SLURM_JOB_ID"), SLURM_PORT_SPAN);
        }
        if (world.value() == 1) return 0;
        throw new LaunchEnvironmentException("MASTER_PORT is not set; the " + world.value()
                + " ranks need it to find the rendezvous store");
    }

    private Named slurmTasksOnThisNode() {
        if (has("SLURM_NTASKS_PER_NODE")) return integer("SLURM_NTASKS_PER_NODE");
        if (!has("SLURM_TASKS_PER_NODE")) return null;
        int node = has("SLURM_NODEID") ? integer("SLURM_NODEID").value() : 0;
        int n = SlurmLists.tasksOnNode("SLURM_TASKS_PER_NODE", env.get("SLURM_TASKS_PER_NODE"), node, "SLURM_NODEID");
        return new Named(n, "SLURM_TASKS_PER_NODE[" + node + "]");
    }

    /** The first of the named variables that is set, or null; null names are skipped. */
    private Named first(String... names) {
        for (String n : names) {
            if (n != null && has(n)) return integer(n);
        }
        return null;
    }

    private Named requiredWith(String name, String because) {
        if (!has(name)) throw missing(name, because);
        return integer(name);
    }

    private Named integer(String name) {
        String text = env.get(name).trim();
        try {
            return new Named(Integer.parseInt(text), name);
        } catch (NumberFormatException e) {
            throw new LaunchEnvironmentException(name + "='" + env.get(name) + "' is not an integer");
        }
    }

    private long longInteger(String name) {
        try {
            return Long.parseLong(env.get(name).trim());
        } catch (NumberFormatException e) {
            throw new LaunchEnvironmentException(name + "='" + env.get(name) + "' is not an integer");
        }
    }

    private boolean has(String name) {
        return env.get(name) != null;
    }

    private static LaunchEnvironmentException missing(String name, String because) {
        return new LaunchEnvironmentException(because + " is set but " + name + " is not");
    }

    private static LaunchEnvironmentException bad(String what) {
        return new LaunchEnvironmentException("launch environment: " + what);
    }
}
