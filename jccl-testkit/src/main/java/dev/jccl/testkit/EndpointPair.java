package dev.jccl.testkit;

import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.VerbsProvider;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Two ends of one provider in one JVM, as two ranks would be: each with its own context, domain,
 * CQs and one RC queue pair; optionally connected (INIT, exchange of {@link ConnectInfo} through its
 * wire encoding, RTR on both sides at once, RTS). Closing closes both ends.
 */
public final class EndpointPair implements AutoCloseable {
    /** Queue sizes of both ends. CQs are sized so the tests never overrun them. */
    public record Options(int cqDepth, int sendDepth, int recvDepth) {
        public static final Options DEFAULT = new Options(256, 16, 16);

        public Options withDepths(int send, int recv) {
            return new Options(cqDepth, send, recv);
        }
    }

    public static final long CONNECT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    private final Endpoint a;
    private final Endpoint b;

    private EndpointPair(Endpoint a, Endpoint b) {
        this.a = a;
        this.b = b;
    }

    /** Both ends opened, each with one queue pair in RESET. Skips the test if the target cannot run. */
    public static EndpointPair open(ProviderTarget target, Options options) {
        return open(target, options, false);
    }

    /** Like {@link #open} with one CQ per end for sends and receives alike. */
    public static EndpointPair openWithOneCq(ProviderTarget target, Options options) {
        return open(target, options, true);
    }

    private static EndpointPair open(ProviderTarget target, Options options, boolean oneCq) {
        VerbsProvider provider = target.requireUsable();
        Device device = target.activeDevice(provider);
        Endpoint a = openEnd("end A", provider, device, target, options, oneCq);
        Endpoint b;
        try {
            b = openEnd("end B", provider, device, target, options, oneCq);
        } catch (RuntimeException e) {
            a.close();
            throw e;
        }
        EndpointPair pair = new EndpointPair(a, b);
        try {
            a.createQp(options.sendDepth(), options.recvDepth());
            b.createQp(options.sendDepth(), options.recvDepth());
        } catch (RuntimeException e) {
            pair.closeQuietly(e);
            throw e;
        }
        return pair;
    }

    private static Endpoint openEnd(String name, VerbsProvider provider, Device device, ProviderTarget target,
                                    Options options, boolean oneCq) {
        return oneCq ? Endpoint.openWithOneCq(name, provider, device, target.config(), options.cqDepth())
                : Endpoint.open(name, provider, device, target.config(), options.cqDepth());
    }

    /** Both ends opened and their queue pairs connected, in RTS. */
    public static EndpointPair connected(ProviderTarget target, Options options) {
        EndpointPair pair = open(target, options);
        try {
            connect(pair.a.qp(), pair.b.qp(), CONNECT_TIMEOUT_NS);
        } catch (RuntimeException | Error e) {
            pair.closeQuietly(e);
            throw e;
        }
        return pair;
    }

    public static EndpointPair connected(ProviderTarget target) {
        return connected(target, Options.DEFAULT);
    }

    public Endpoint a() { return a; }
    public Endpoint b() { return b; }

    /**
     * Brings two RESET queue pairs to RTS, connected to each other. Each side's info travels through
     * {@link ConnectInfo#encode()}/{@code decode} as it would through a store. Both RTR transitions
     * run at once, because a provider may complete its connection handshake inside RTR.
     */
    public static void connect(QueuePair x, QueuePair y, long timeoutNs) {
        x.modifyToInit();
        y.modifyToInit();
        connectInitialized(x, y, timeoutNs);
    }

    /** Like {@link #connect} for two queue pairs already in INIT (e.g. with receives pre-posted). */
    public static void connectInitialized(QueuePair x, QueuePair y, long timeoutNs) {
        ConnectInfo forX = ConnectInfo.decode(y.localInfo().encode());
        ConnectInfo forY = ConnectInfo.decode(x.localInfo().encode());
        CompletableFuture<Void> yRtr = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().name("rtr-qp" + y.qpn()).daemon().start(() -> {
            try {
                y.modifyToRtr(forY);
                yRtr.complete(null);
            } catch (Throwable e) {
                yRtr.completeExceptionally(e);
            }
        });
        x.modifyToRtr(forX);
        try {
            yRtr.get(timeoutNs, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            t.interrupt();
            throw new AssertionError("qp " + y.qpn() + " did not reach RTR within "
                    + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms", e);
        } catch (ExecutionException e) {
            throw new AssertionError("qp " + y.qpn() + " failed to reach RTR: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while connecting", e);
        }
        x.modifyToRts();
        y.modifyToRts();
    }

    private void closeQuietly(Throwable cause) {
        try {
            close();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
        }
    }

    @Override
    public void close() {
        try {
            b.close();
        } finally {
            a.close();
        }
    }
}
