package dev.jccl.testkit.jvm;

import dev.jccl.bootstrap.TcpStoreClient;
import dev.jccl.bootstrap.TcpStoreServer;
import dev.jccl.config.Knobs;
import dev.jccl.util.AuthHandshake;

import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * Real JVMs as ranks, started the way torchrun starts them, without the jccl launcher: this JVM
 * hosts the job's {@link TcpStoreServer} and gives each rank RANK, WORLD_SIZE, LOCAL_RANK,
 * LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT, JCCL_AUTH_TOKEN and JCCL_STORE_HOSTED=1. Some ranks
 * may instead be threads of this JVM ({@link Builder#jvmRanks}), joining the same store through
 * {@link #storeClient}. (To go through the launcher, hand a {@link JavaCommand} to it instead.)
 *
 * <p>{@link #close()} kills every rank JVM, then closes the store.
 */
public final class JvmJob implements AutoCloseable {
    private static final long STORE_HANDSHAKE_NS = TimeUnit.SECONDS.toNanos(10);

    private final String masterAddr;
    private final String token;
    private final TcpStoreServer store;
    private final Map<Integer, ChildJvm> jvms = new LinkedHashMap<>();

    private JvmJob(String masterAddr, String token, TcpStoreServer store) {
        this.masterAddr = masterAddr;
        this.token = token;
        this.store = store;
    }

    public static Builder builder(int worldSize) {
        return new Builder(worldSize);
    }

    public String token() { return token; }
    public String masterAddr() { return masterAddr; }
    public int port() { return store.port(); }

    /** The JVM of {@code rank}; fails for a rank that runs elsewhere. */
    public ChildJvm rank(int rank) {
        ChildJvm jvm = jvms.get(rank);
        if (jvm == null) throw new IllegalArgumentException("rank " + rank + " is not a JVM of this job; JVM ranks: " + jvms.keySet());
        return jvm;
    }

    /** A client of the job's store, for ranks that run as threads here. */
    public TcpStoreClient storeClient(long timeoutNs) {
        return TcpStoreClient.connect(masterAddr, port(), token, timeoutNs);
    }

    /** Waits (bounded, all together) for every rank JVM to exit; fails naming the first that failed or is still running. */
    public void awaitSuccess(long timeoutNs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNs;
        for (var e : jvms.entrySet()) {
            int status = e.getValue().awaitExit(Math.max(0, deadline - System.nanoTime()));
            if (status != 0) throw new AssertionError("rank " + e.getKey() + " exited with " + status + e.getValue().output());
        }
    }

    @Override
    public void close() {
        try {
            jvms.values().forEach(ChildJvm::close);
        } finally {
            store.close();
        }
    }

    /** What the job runs; {@link #start()} hosts the store and starts the JVM ranks. */
    public static final class Builder {
        private final int worldSize;
        private IntFunction<JavaCommand> commandOf;
        private List<Integer> jvmRanks;
        private final Map<String, String> env = new HashMap<>();
        private String masterAddr = "127.0.0.1";

        private Builder(int worldSize) {
            if (worldSize < 1) throw new IllegalArgumentException("need at least one rank, got " + worldSize);
            this.worldSize = worldSize;
            this.jvmRanks = IntStream.range(0, worldSize).boxed().toList();
        }

        /** The same command for every rank. */
        public Builder command(JavaCommand command) {
            Objects.requireNonNull(command, "command");
            return command(rank -> command);
        }

        /** A command per rank, e.g. each wrapped to run in its rank's host (see {@link JavaCommand#prefixedBy}). */
        public Builder command(IntFunction<JavaCommand> commandOfRank) {
            this.commandOf = Objects.requireNonNull(commandOfRank, "commandOfRank");
            return this;
        }

        /** Only these ranks get a JVM; the others are the test's to run (default: every rank). */
        public Builder jvmRanks(int... ranks) {
            for (int r : ranks) if (r < 0 || r >= worldSize) throw new IllegalArgumentException("rank " + r + " outside 0.." + (worldSize - 1));
            this.jvmRanks = IntStream.of(ranks).boxed().toList();
            return this;
        }

        /** Extra environment of every rank, e.g. JCCL_TRANSPORT. */
        public Builder env(Map<String, String> more) {
            env.putAll(more);
            return this;
        }

        /** Where the store listens and where ranks look for it (default 127.0.0.1). */
        public Builder masterAddr(String addr) {
            this.masterAddr = Objects.requireNonNull(addr, "addr");
            return this;
        }

        public JvmJob start() {
            if (commandOf == null) throw new IllegalStateException("no command given");
            String token = AuthHandshake.newToken();
            JvmJob job = new JvmJob(masterAddr, token,
                    TcpStoreServer.start(new InetSocketAddress(masterAddr, 0), token, STORE_HANDSHAKE_NS));
            try {
                for (int rank : jvmRanks) {
                    Map<String, String> e = new HashMap<>(env);
                    e.put("RANK", Integer.toString(rank));
                    e.put("WORLD_SIZE", Integer.toString(worldSize));
                    e.put("LOCAL_RANK", Integer.toString(rank));
                    e.put("LOCAL_WORLD_SIZE", Integer.toString(worldSize));
                    e.put("MASTER_ADDR", masterAddr);
                    e.put("MASTER_PORT", Integer.toString(job.port()));
                    e.put(Knobs.AUTH_TOKEN.name(), token);
                    e.put(Knobs.STORE_HOSTED.name(), "1");
                    JavaCommand cmd = commandOf.apply(rank);
                    job.jvms.put(rank, ChildJvm.start("rank " + rank, cmd.toList(), e));
                }
            } catch (RuntimeException | Error failure) {
                job.close();
                throw failure;
            }
            return job;
        }
    }
}
