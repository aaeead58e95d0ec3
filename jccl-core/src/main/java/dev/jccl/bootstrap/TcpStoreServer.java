package dev.jccl.bootstrap;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.trace.Log;
import dev.jccl.trace.RateLimitedWarning;
import dev.jccl.trace.Subsys;
import dev.jccl.util.Deadline;
import dev.jccl.util.IdleStrategy;
import dev.jccl.util.WaitPolicy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Hosts a {@link MemoryStore} over TCP for the ranks of one job.
 *
 * <p>Threads, all daemons: one acceptor, one per client connection (it authenticates the client with
 * the job token, then reads and answers its requests), and one timer that answers waits whose
 * timeout ran out. A wait never occupies a thread: it is a {@link KeyWatch} answered by whichever
 * thread writes the last missing key. A client that fails the handshake or sends a malformed frame
 * loses its connection and is logged; the server and other clients carry on.
 *
 * <p>{@link #close()} stops accepting, closes every connection and the timer; it is idempotent.
 */
public final class TcpStoreServer implements AutoCloseable {
    /** Binds the handshake MAC to this service, so a token proof for another service is useless here. */
    static final String HANDSHAKE_PURPOSE = "jccl-store";
    private static final long MAX_HANDSHAKE_NS = TimeUnit.SECONDS.toNanos(10);

    private final ServerSocket listener;
    private final MemoryStore store = new MemoryStore();
    private final String token;
    private final long handshakeTimeoutNs;
    private final ScheduledThreadPoolExecutor timers;
    private final Set<StoreServerConnection> connections = ConcurrentHashMap.newKeySet();
    /** Refused and dropped clients: anyone who can reach the port can make these, so they are rate-limited. */
    private final RateLimitedWarning refusals = new RateLimitedWarning(Subsys.BOOTSTRAP, "refusals");
    private volatile boolean closed;

    private TcpStoreServer(ServerSocket listener, String token, long handshakeTimeoutNs) {
        this.listener = listener;
        this.token = token;
        this.handshakeTimeoutNs = handshakeTimeoutNs;
        this.timers = new ScheduledThreadPoolExecutor(1, r -> daemon(r, "jccl-store-timer"));
        timers.setRemoveOnCancelPolicy(true);
    }

    /**
     * Binds to {@code bindAddress} (port 0 picks a free one) and starts serving. Clients must present
     * {@code token}; one that has not finished the handshake within {@code handshakeTimeoutNs} is dropped.
     */
    public static TcpStoreServer start(InetSocketAddress bindAddress, String token, long handshakeTimeoutNs) {
        if (handshakeTimeoutNs <= 0) throw new IllegalArgumentException("handshake timeout must be positive: " + handshakeTimeoutNs);
        ServerSocket s = null;
        try {
            s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(bindAddress, 512);
            TcpStoreServer server = new TcpStoreServer(s, token, handshakeTimeoutNs);
            daemon(server::acceptLoop, "jccl-store-accept-" + server.port()).start();
            Log.info(Subsys.BOOTSTRAP, "store: listening on %s", server.address());
            return server;
        } catch (IOException e) {
            closeQuietly(s);
            throw new StoreException("cannot host the store at " + bindAddress + ": " + e.getMessage(), e);
        }
    }

    /** Binds to {@code host:port} with the job token and timeout of {@code cfg}. */
    public static TcpStoreServer start(String host, int port, Config cfg) {
        long handshakeNs = Math.min(cfg.get(Knobs.TIMEOUT_NS), MAX_HANDSHAKE_NS);
        return start(new InetSocketAddress(host, port), cfg.get(Knobs.AUTH_TOKEN), handshakeNs);
    }

    /** Loopback only, the safe default for a single-host job. */
    public static TcpStoreServer startLoopback(int port, String token, long handshakeTimeoutNs) {
        return start(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), token, handshakeTimeoutNs);
    }

    /** The bound address, with the real port when 0 was asked for. */
    public InetSocketAddress address() {
        return (InetSocketAddress) listener.getLocalSocketAddress();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Authenticated or handshaking connections open right now. */
    public int connectionCount() {
        return connections.size();
    }

    /** GETs and WAITs waiting for keys, over all clients; each answered or abandoned wait leaves. */
    int pendingWaitCount() {
        return connections.stream().mapToInt(StoreServerConnection::pendingWaitCount).sum();
    }

    /**
     * Waits (at most {@code timeoutNs}) until no client is connected, so a host can outlive the
     * ranks still reading the store. Returns whether that happened.
     */
    public boolean awaitNoConnections(long timeoutNs) {
        Deadline deadline = Deadline.after(timeoutNs);
        IdleStrategy idle = WaitPolicy.storeLinger();
        while (!connections.isEmpty()) {
            if (deadline.expired()) return false;
            idle.idle();
        }
        return true;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        closeQuietly(listener);
        for (StoreServerConnection c : connections) c.close();
        timers.shutdownNow();
        store.close();
        refusals.flush();
        Log.info(Subsys.BOOTSTRAP, "store: closed %s", address());
    }

    boolean isClosed() {
        return closed;
    }

    RateLimitedWarning refusals() {
        return refusals;
    }

    void connectionEnded(StoreServerConnection c) {
        connections.remove(c);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket socket;
            try {
                socket = listener.accept();
            } catch (IOException e) {
                if (closed) return;
                Log.warn(Subsys.BOOTSTRAP, "store: accept on %s failed: %s", address(), e.getMessage());
                LockSupport.parkNanos(10_000_000); // e.g. out of file descriptors: do not spin on it
                continue;
            }
            StoreServerConnection c = new StoreServerConnection(this, socket, store, timers, token, handshakeTimeoutNs);
            connections.add(c);
            if (closed) c.close();
            daemon(c, "jccl-store-conn-" + socket.getRemoteSocketAddress()).start();
        }
    }

    private static Thread daemon(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    static void closeQuietly(AutoCloseable c) {
        if (c == null) return;
        try {
            c.close();
        } catch (Exception ignored) {
            // closing is best effort; the resource is being abandoned either way
        }
    }
}
