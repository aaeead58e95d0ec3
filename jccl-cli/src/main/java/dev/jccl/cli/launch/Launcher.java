package dev.jccl.cli.launch;

import dev.jccl.bootstrap.StoreException;
import dev.jccl.bootstrap.TcpStoreServer;
import dev.jccl.config.Knobs;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.AuthHandshake;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Starts the ranks of one node of a job, torchrun-style, for {@code jccl launch} and for any code
 * that needs real rank processes (tests, perf tools).
 *
 * <p>On node 0 the launcher hosts the rendezvous store itself for the job's lifetime, so ranks find
 * it as soon as they start and rank 0 does not host another (JCCL_STORE_HOSTED=1). Every rank gets
 * RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, GROUP_RANK/NODE_RANK, MASTER_ADDR, MASTER_PORT and
 * the job token JCCL_AUTH_TOKEN on top of the launcher's environment.
 */
public final class Launcher {
    private static final long STORE_HANDSHAKE_NS = TimeUnit.SECONDS.toNanos(10);

    private final Builder b;
    private final String token;

    private Launcher(Builder b) {
        this.b = b;
        this.token = b.authToken != null && !b.authToken.isEmpty() ? b.authToken : AuthHandshake.newToken();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts every local rank (hosting the store first on node 0) and returns at once. Throws
     * {@link LaunchException} when the store cannot be hosted or a rank's command cannot be started;
     * ranks already started are stopped first.
     */
    public LaunchedJob start() {
        TcpStoreServer store;
        try {
            store = b.nodeRank == 0
                    ? TcpStoreServer.start(new InetSocketAddress(b.masterAddr, b.masterPort), token, STORE_HANDSHAKE_NS)
                    : null;
        } catch (StoreException e) {
            throw new LaunchException("jccl launch: " + e.getMessage(), e);
        }
        int port = store != null ? store.port() : b.masterPort;
        int firstRank = b.nodeRank * b.nprocPerNode;
        Log.info(Subsys.LAUNCH, "launch: ranks %d..%d of %d on node %d, store %s:%d%s", firstRank,
                firstRank + b.nprocPerNode - 1, b.nnodes * b.nprocPerNode, b.nodeRank, b.masterAddr, port,
                store != null ? " (hosted here)" : "");
        List<RankProcess> started = new ArrayList<>();
        try {
            for (int local = 0; local < b.nprocPerNode; local++) {
                started.add(RankProcess.start(firstRank + local, processBuilder(local, port), b.out, b.err, b.captureOutput,
                        firstRank + local == b.plainStdoutRank));
            }
        } catch (IOException e) {
            LaunchedJob partial = new LaunchedJob(started, store, firstRank, b.timeoutNs, b.graceNs);
            partial.stop("could not start rank " + (firstRank + started.size()) + ": " + e.getMessage());
            partial.await();
            throw new LaunchException("jccl launch: cannot start rank " + (firstRank + started.size())
                    + " with " + b.command + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            started.forEach(r -> r.process().destroyForcibly());
            if (store != null) store.close();
            throw e;
        }
        return new LaunchedJob(started, store, firstRank, b.timeoutNs, b.graceNs);
    }

    /** {@link #start()} then {@link LaunchedJob#await()}. */
    public LaunchResult run() {
        return start().await();
    }

    private ProcessBuilder processBuilder(int local, int port) {
        ProcessBuilder pb = new ProcessBuilder(b.command);
        if (b.workingDirectory != null) pb.directory(b.workingDirectory.toFile());
        Map<String, String> env = pb.environment();
        env.putAll(b.env);
        int rank = b.nodeRank * b.nprocPerNode + local;
        env.put("RANK", Integer.toString(rank));
        env.put("WORLD_SIZE", Integer.toString(b.nnodes * b.nprocPerNode));
        env.put("LOCAL_RANK", Integer.toString(local));
        env.put("LOCAL_WORLD_SIZE", Integer.toString(b.nprocPerNode));
        env.put("GROUP_RANK", Integer.toString(b.nodeRank));
        env.put("NODE_RANK", Integer.toString(b.nodeRank));
        env.put("MASTER_ADDR", b.masterAddr);
        env.put("MASTER_PORT", Integer.toString(port));
        env.put(Knobs.AUTH_TOKEN.name(), token);
        env.put(Knobs.STORE_HOSTED.name(), "1");
        return pb;
    }

    /** Options of a launch; {@link #build()} checks them together. Not thread-safe. */
    public static final class Builder {
        private int nprocPerNode = 1;
        private int nnodes = 1;
        private int nodeRank;
        private String masterAddr = "127.0.0.1";
        private int masterPort;
        private List<String> command;
        private final Map<String, String> env = new LinkedHashMap<>();
        private String authToken;
        private long timeoutNs;
        private long graceNs = TimeUnit.SECONDS.toNanos(3);
        private PrintStream out = System.out;
        private PrintStream err = System.err;
        private boolean captureOutput;
        private int plainStdoutRank = -1;
        private java.nio.file.Path workingDirectory;

        private Builder() {}

        public Builder nprocPerNode(int n) { this.nprocPerNode = n; return this; }
        public Builder nnodes(int n) { this.nnodes = n; return this; }
        public Builder nodeRank(int r) { this.nodeRank = r; return this; }
        public Builder masterAddr(String a) { this.masterAddr = Objects.requireNonNull(a); return this; }
        /** 0 on node 0 picks a free port. */
        public Builder masterPort(int p) { this.masterPort = p; return this; }
        public Builder command(List<String> cmd) { this.command = List.copyOf(cmd); return this; }
        /** Extra variables for every rank (the launcher's own variables win over these). */
        public Builder env(String name, String value) { this.env.put(name, value); return this; }
        /** The job token; null or empty makes a fresh one (only possible for a single-node job). */
        public Builder authToken(String t) { this.authToken = t; return this; }
        /** Kill everything and fail after this long; 0 means no limit. */
        public Builder timeoutNs(long ns) { this.timeoutNs = ns; return this; }
        /** Between SIGTERM and SIGKILL when stopping ranks. */
        public Builder graceNs(long ns) { this.graceNs = ns; return this; }
        /** Where prefixed rank stdout and stderr lines go. */
        public Builder output(PrintStream out, PrintStream err) { this.out = out; this.err = err; return this; }
        /** Also keep each rank's lines in the {@link LaunchResult}. */
        public Builder captureOutput(boolean c) { this.captureOutput = c; return this; }
        /** This rank's stdout lines pass through without the {@code [rank]} prefix (machine-readable output). */
        public Builder plainStdoutRank(int rank) { this.plainStdoutRank = rank; return this; }
        public Builder workingDirectory(java.nio.file.Path dir) { this.workingDirectory = dir; return this; }

        public Launcher build() {
            if (nprocPerNode < 1) throw bad("--ranks " + nprocPerNode + " must be at least 1");
            if (nnodes < 1) throw bad("--nnodes " + nnodes + " must be at least 1");
            if (nodeRank < 0 || nodeRank >= nnodes) throw bad("--node-rank " + nodeRank + " outside [0, --nnodes " + nnodes + ")");
            if (masterPort < 0 || masterPort > 65535) throw bad("--master-port " + masterPort + " outside [0, 65535]");
            if (nnodes > 1 && masterPort == 0) throw bad("--master-port is needed when --nnodes is " + nnodes + ": other nodes cannot guess a free port");
            if (nnodes > 1 && (authToken == null || authToken.isEmpty())) {
                throw bad("set JCCL_AUTH_TOKEN to the same secret on every node when --nnodes is " + nnodes);
            }
            if (command == null || command.isEmpty()) throw bad("no command to launch (put it after --)");
            if (timeoutNs < 0 || graceNs < 0) throw bad("negative timeout or grace period");
            return new Launcher(this);
        }

        private static IllegalArgumentException bad(String why) {
            return new IllegalArgumentException("jccl launch: " + why);
        }
    }
}
