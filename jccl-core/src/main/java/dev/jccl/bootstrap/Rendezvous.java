package dev.jccl.bootstrap;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The bootstrap entry: gives every rank of a job a connection to one shared {@link Store}.
 *
 * <p>Rank 0 hosts a {@link TcpStoreServer} at MASTER_ADDR:MASTER_PORT, unless the launcher already
 * hosts one there (JCCL_STORE_HOSTED=1, as {@code jccl launch} does); then every rank, rank 0 too,
 * connects a {@link TcpStoreClient} with the job token. A single-process job with no store port
 * gets an in-memory store. Waits are bounded by JCCL_TIMEOUT.
 */
public final class Rendezvous implements AutoCloseable {
    private static final long MAX_HANDSHAKE_NS = TimeUnit.SECONDS.toNanos(10);

    private final LaunchEnvironment env;
    private final Store store;
    private final TcpStoreServer server; // non-null when this rank hosts the store
    private final long timeoutNs;
    private final PeerExchange peers;
    private final StoreBarrier barrier;

    private Rendezvous(LaunchEnvironment env, Store store, TcpStoreServer server, long timeoutNs) {
        this.env = env;
        this.store = store;
        this.server = server;
        this.timeoutNs = timeoutNs;
        this.peers = new PeerExchange(store, env.rank(), env.worldSize(), timeoutNs);
        this.barrier = new StoreBarrier(store, env.rank(), env.worldSize(), "rendezvous", timeoutNs);
    }

    /** Hosts (rank 0, unless hosted elsewhere) and connects; blocks at most JCCL_TIMEOUT. */
    public static Rendezvous connect(LaunchEnvironment env, Config cfg) {
        long timeoutNs = cfg.get(Knobs.TIMEOUT_NS);
        String token = cfg.get(Knobs.AUTH_TOKEN);
        boolean hostedElsewhere = cfg.get(Knobs.STORE_HOSTED);
        Log.setRank(env.rank());
        if (env.worldSize() == 1 && env.masterPort() == 0 && !hostedElsewhere) {
            Log.info(Subsys.BOOTSTRAP, "rendezvous: %s, in-memory store", env.describe());
            return new Rendezvous(env, new MemoryStore(), null, timeoutNs);
        }
        if (token.isEmpty()) {
            Log.warn(Subsys.BOOTSTRAP, "JCCL_AUTH_TOKEN is not set: the store at %s:%d accepts any jccl process that"
                    + " reaches it; use jccl launch or give every rank the same secret", env.masterAddr(), env.masterPort());
        }
        TcpStoreServer server = null;
        if (env.rank() == 0 && !hostedElsewhere) {
            try {
                server = TcpStoreServer.start(new InetSocketAddress(env.masterAddr(), env.masterPort()), token,
                        Math.min(timeoutNs, MAX_HANDSHAKE_NS));
            } catch (StoreException e) {
                throw new StoreException(e.getMessage() + " (rank 0 hosts the store unless JCCL_STORE_HOSTED=1 says"
                        + " the launcher does)", e);
            }
        }
        try {
            TcpStoreClient client = TcpStoreClient.connect(env.masterAddr(), env.masterPort(), token, timeoutNs);
            Log.info(Subsys.BOOTSTRAP, "rendezvous: %s%s", env.describe(), server != null ? ", hosting the store" : "");
            return new Rendezvous(env, client, server, timeoutNs);
        } catch (RuntimeException e) {
            if (server != null) server.close();
            throw e;
        }
    }

    /** {@link #connect} with the launcher variables and knobs of this process. */
    public static Rendezvous fromEnvironment() {
        return connect(LaunchEnvironment.fromSystem(), Config.fromEnvironment());
    }

    public LaunchEnvironment environment() {
        return env;
    }

    /** The job's shared store; callers namespace with {@link PrefixStore}. */
    public Store store() {
        return store;
    }

    /** All-gather and per-pair exchanges over {@link #store()}. */
    public PeerExchange peers() {
        return peers;
    }

    /** Blocks until every rank has called it as often (at most JCCL_TIMEOUT); reusable. */
    public void barrier() {
        barrier.await();
    }

    /** Whether this process hosts the store (rank 0 without a hosting launcher). */
    public boolean hostsStore() {
        return server != null;
    }

    /**
     * Disconnects. The host keeps serving until the other ranks have disconnected (at most
     * JCCL_TIMEOUT), so a rank 0 that finishes first does not pull the store from under the rest.
     */
    @Override
    public void close() {
        store.close();
        if (server != null) {
            if (!server.awaitNoConnections(timeoutNs)) {
                Log.warn(Subsys.BOOTSTRAP, "store: %d rank(s) still connected after %s; closing the store anyway",
                        server.connectionCount(), StoreTimeoutException.seconds(timeoutNs));
            }
            server.close();
        }
    }
}
