package dev.jccl.verbs.tcp;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.WaitPolicy;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.ActivityWait;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.VerbsException;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An opened tcp device: one listener bound to the device's address (never the wildcard), and the
 * queue pairs it routes inbound sockets to by qpn. Thread-safe.
 */
final class TcpContext implements DeviceContext {
    private final Device device;
    private final Inet4Address address;
    private final String token;
    private final long timeoutNs;
    private final long rnrTimeoutNs;
    private final long heartbeatNs;
    private final WaitPolicy waitPolicy;
    private final int lanesPerConnection;
    private final boolean sharedSockets;
    private final long inlineMaxBytes;
    /** JCCL_TCP_ADVERTISE: "" or the ADDR:PORT published instead of this listener's own (a forwarder's). */
    private final String advertised;
    /** JCCL_TCP_CONGESTION: auto, host or an algorithm's name ({@link SocketCongestion#choose}). */
    private final String congestion;
    private final String hostCongestion = SocketCongestion.hostDefault();
    private final AtomicBoolean congestionReported = new AtomicBoolean();
    private final TcpListener listener;
    private final AtomicInteger nextQpn = new AtomicInteger(1);
    private final Map<Integer, TcpQueuePair> qps = new ConcurrentHashMap<>();
    private final Set<TcpProtectionDomain> pds = ConcurrentHashMap.newKeySet();
    private final Set<TcpCompletionQueue> cqs = ConcurrentHashMap.newKeySet();
    private final ContextSleeper sleeper = new ContextSleeper();
    private volatile boolean closed;

    TcpContext(Device device, Inet4Address address, Config config) {
        this.device = device;
        this.address = address;
        this.token = config.get(Knobs.AUTH_TOKEN);
        this.timeoutNs = config.get(Knobs.TIMEOUT_NS);
        this.rnrTimeoutNs = config.get(Knobs.RNR_TIMEOUT_NS);
        this.heartbeatNs = config.get(Knobs.HEARTBEAT_NS);
        this.waitPolicy = config.waitPolicy(1);
        this.lanesPerConnection = config.get(Knobs.QPS_PER_CONNECTION);
        this.sharedSockets = config.get(Knobs.TCP_SHARED_SOCKETS);
        this.inlineMaxBytes = config.get(Knobs.TCP_INLINE);
        this.advertised = config.get(Knobs.TCP_ADVERTISE);
        this.congestion = config.get(Knobs.TCP_CONGESTION);
        this.listener = new TcpListener(this);
    }

    /** Sets a connected data socket's congestion control as JCCL_TCP_CONGESTION says; logs the first choice made, or refused. */
    void applyCongestion(SocketChannel ch) {
        String algorithm;
        try {
            algorithm = SocketCongestion.choose(congestion, ((InetSocketAddress) ch.getRemoteAddress()).getAddress(), hostCongestion);
        } catch (IOException e) {
            return; // no longer connected: the lane's first read or write reports it
        }
        if (algorithm.isEmpty()) return;
        boolean auto = congestion.equals(SocketCongestion.AUTO);
        SocketCongestion.Outcome took = auto ? SocketCongestion.setFirst(ch, algorithm, SocketCongestion.LOOPBACK_FALLBACK)
                : SocketCongestion.setFirst(ch, algorithm);
        if (!congestionReported.compareAndSet(false, true)) return;
        if (took.why().isEmpty()) {
            Log.info(Subsys.NET, "tcp: data sockets%s use %s congestion control, the host's default is %s (JCCL_TCP_CONGESTION=%s)",
                    auto ? " to loopback peers" : "", took.algorithm(), hostCongestion, congestion);
        } else {
            Log.info(Subsys.NET, "tcp: data sockets keep the host's congestion control (%s), not %s: %s", hostCongestion, algorithm, took.why());
        }
    }

    @Override public Device device() { return device; }
    Inet4Address address() { return address; }
    String token() { return token; }
    long timeoutNs() { return timeoutNs; }
    long rnrTimeoutNs() { return rnrTimeoutNs; }
    long heartbeatNs() { return heartbeatNs; }

    /** A peer silent for this many heartbeat periods is lost: 3 s at the default 200 ms. */
    static final int SILENT_HEARTBEATS = 15;

    long silenceNs() { return heartbeatNs * SILENT_HEARTBEATS; }
    int lanesPerConnection() { return lanesPerConnection; }
    /** JCCL_TCP_SHARED_SOCKETS: a queue pair's sockets carry both directions (see {@link TcpConnection}). */
    boolean sharedSockets() { return sharedSockets; }
    /**
     * JCCL_TCP_INLINE for a queue pair (see {@link Requester} on inline requests): a number applies to
     * every one; {@code auto} lets only a queue pair whose consumer reads a send completion as "buffer
     * free" ({@code sendBufferCompletion}) complete a request whose one frame left during the post,
     * whatever its size (the kernel has every byte then), so the RC meaning holds for every other one
     * (the conformance suite checks it).
     */
    long inlineMaxBytes(boolean sendBufferCompletion) {
        if (inlineMaxBytes != Knobs.TCP_INLINE_AUTO) return inlineMaxBytes;
        return sendBufferCompletion ? Long.MAX_VALUE : 0;
    }

    /** "lo 127.0.0.1": the interface and address connections really use. */
    String deviceLabel() {
        return device.name() + " " + address.getHostAddress();
    }

    /** The port the listener binds: the advertised one (a forwarder relays to the same port), else ephemeral. */
    int listenPort() {
        return advertised.isEmpty() ? 0 : Integer.parseInt(advertised.substring(advertised.lastIndexOf(':') + 1));
    }

    /** The listener's "ip:port", what peers dial: JCCL_TCP_ADVERTISE when set. */
    String gid() {
        return advertised.isEmpty() ? address.getHostAddress() + ":" + listener.port() : advertised;
    }

    @Override
    public ProtectionDomain allocPd() {
        checkOpen();
        TcpProtectionDomain pd = new TcpProtectionDomain(this);
        pds.add(pd);
        return pd;
    }

    @Override
    public CompletionQueue createCq(int depth) {
        checkOpen();
        TcpCompletionQueue cq = new TcpCompletionQueue(depth, waitPolicy, sleeper);
        cqs.add(cq);
        return cq;
    }

    @Override
    public ActivityWait activityWait() {
        return sleeper;
    }

    @Override
    public boolean movesDataOnOwnThreads() {
        return true;
    }

    TcpCompletionQueue ownCq(CompletionQueue cq) {
        if (!(cq instanceof TcpCompletionQueue b) || !cqs.contains(b)) {
            throw new VerbsException("completion queue " + cq + " was not created by this tcp context");
        }
        return b;
    }

    TcpQueuePair newQp(TcpProtectionDomain pd, TcpCompletionQueue sendCq, TcpCompletionQueue recvCq, int sendDepth,
                       int recvDepth, long inlineMaxBytes) {
        checkOpen();
        int qpn = nextQpn.getAndIncrement();
        TcpQueuePair qp = new TcpQueuePair(this, pd, qpn, sendCq, recvCq, sendDepth, recvDepth, inlineMaxBytes);
        qps.put(qpn, qp);
        return qp;
    }

    /** Routes an authenticated inbound socket; returns "" or why it is refused. */
    String attach(HelloDescriptor.Hello hello, SocketChannel ch, String peer) {
        TcpQueuePair qp = qps.get(hello.targetQpn());
        if (qp == null) return "no queue pair " + hello.targetQpn() + " on " + gid();
        return qp.attach(hello, ch, peer);
    }

    /** Answers a probe: "" when the queue pair is there to open its shared sockets, else why not. */
    String probe(HelloDescriptor.Hello hello) {
        TcpQueuePair qp = qps.get(hello.targetQpn());
        if (qp == null) return "no queue pair " + hello.targetQpn() + " on " + gid();
        return qp.probe();
    }

    /** The send window of queue pair {@code qpn}, told to a peer that opened a shared socket to it; 0 if it is gone. */
    int window(int qpn) {
        TcpQueuePair qp = qps.get(qpn);
        return qp == null ? 0 : qp.window();
    }

    /** Starts reading a socket {@link #attach} accepted, once the peer has its verdict. */
    void startLane(HelloDescriptor.Hello hello) {
        TcpQueuePair qp = qps.get(hello.targetQpn());
        if (qp != null) qp.startLane(hello.lane());
    }

    void forget(TcpQueuePair qp) {
        qps.remove(qp.qpn(), qp);
    }

    void forget(TcpProtectionDomain pd) {
        pds.remove(pd);
    }

    /** Stops the listener, closes every domain (and its queue pairs), then the completion queues. */
    @Override
    public void close() {
        if (closed) return;
        closed = true;
        listener.close();
        for (TcpProtectionDomain pd : new ArrayList<>(pds)) pd.close();
        for (TcpCompletionQueue cq : cqs) cq.close();
        sleeper.close();
    }

    private void checkOpen() {
        if (closed) throw new VerbsException("tcp context on " + deviceLabel() + " is closed");
    }
}
