package dev.jccl.verbs.tcp;

import dev.jccl.util.Deadline;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.VerbsException;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The sockets of one queue pair, {@code laneCount} of them, in one of two shapes.
 *
 * <p>Shared (JCCL_TCP_SHARED_SOCKETS=1, the default): each socket carries both directions. The side
 * whose listener address and qpn sort first opens them; the other side's lanes start pending and take
 * the sockets as its listener accepts them. One socket per lane lets TCP acknowledge one side's data in
 * the header of the other side's: with a socket per direction every data segment drew a pure ACK
 * segment, whose sending made the reader's read about three times as costly, and an 8 B exchange took
 * four segments instead of two.
 *
 * <p>Split (JCCL_TCP_SHARED_SOCKETS=0, and a queue pair connected to itself): each side opens its own
 * sockets to the peer's listener, writes only on those and reads only the sockets the peer opened.
 *
 * <p>Either way each socket has one writer ({@link OutboundLane}) and one reader ({@link ReceiverAgent})
 * per direction, and reading never waits on writing: a responder busy sending a large READ_RESPONSE
 * never stops reading, and neither side can deadlock the other through full buffers. Inbound sockets
 * may arrive before this side is RTR; they are checked against the peer named at RTR on whichever
 * happens second.
 */
final class TcpConnection {
    private final TcpQueuePair qp;
    private final TcpContext context;
    private volatile ConnectInfo remote;
    private volatile OutboundLanes outbound;
    private volatile String description;
    private HelloDescriptor.Hello inboundHello; // guarded by this
    private ReceiverAgent[] inbound;            // guarded by this
    private volatile ReceiverAgent[] started = new ReceiverAgent[0]; // read without the lock on every postRecv
    private boolean closed;                     // guarded by this

    TcpConnection(TcpQueuePair qp, TcpContext context) {
        this.qp = qp;
        this.context = context;
        this.description = "qp " + qp.qpn() + " (not connected) via NET/Socket " + context.deviceLabel();
    }

    private SocketRole role(ConnectInfo peer) {
        return SocketRole.of(context.sharedSockets(), context.gid(), qp.qpn(), peer.gid(), peer.qpn());
    }

    /**
     * Opens and authenticates every lane to {@code peer}, all or nothing, or (the accepting side of shared
     * sockets) sets up pending lanes and returns at once. Blocking, bounded by JCCL_TIMEOUT.
     */
    OutboundLanes connect(ConnectInfo peer, int window, int psn) {
        SocketRole role = role(peer);
        int laneCount = context.lanesPerConnection();
        List<OutboundLane> lanes = new ArrayList<>();
        List<ReceiverAgent> readers = new ArrayList<>();
        try {
            int peerWindow = 0;
            if (role == SocketRole.ACCEPTOR) pendingLanes(peer, window, psn, laneCount, lanes);
            else peerWindow = openLanes(peer, window, psn, role == SocketRole.OPENER, lanes, readers);
            synchronized (this) {
                if (closed) throw new VerbsException("qp " + qp.qpn() + " was closed while connecting");
                String mismatch = mismatch(inboundHello, peer);
                if (mismatch == null && inboundHello != null) mismatch = role.mismatch(qp.qpn(), inboundHello, laneCount);
                if (mismatch != null) throw new VerbsException(mismatch);
                if (role == SocketRole.OPENER) {
                    inboundHello = new HelloDescriptor.Hello(qp.qpn(), peer.qpn(), 0, laneCount, peerWindow, peer.psn(), HelloDescriptor.SHARED);
                    inbound = readers.toArray(ReceiverAgent[]::new);
                }
                remote = peer;
                outbound = new OutboundLanes(lanes);
                if (role == SocketRole.ACCEPTOR) for (ReceiverAgent a : started) attachShared(a.lane, a.channel()); // told their verdict
            }
        } catch (RuntimeException e) {
            for (OutboundLane l : lanes) l.close();
            for (ReceiverAgent r : readers) r.close();
            throw e;
        }
        if (role == SocketRole.OPENER) for (int i = 0; i < laneCount; i++) startLane(i);
        description = "qp " + qp.qpn() + " -> " + peer.gid() + " qp " + peer.qpn() + " via NET/Socket " + context.deviceLabel() + " ("
                + laneCount + (laneCount == 1 ? " socket" : " sockets") + (role == SocketRole.SPLIT ? " each way)" : ", shared)");
        return outbound;
    }

    /** Opens the lanes, and for shared sockets their readers; returns the peer's window as it announced it (0 for split ones). */
    private int openLanes(ConnectInfo peer, int window, int psn, boolean shared, List<OutboundLane> lanes, List<ReceiverAgent> readers) {
        InetSocketAddress target = parseGid(peer.gid());
        int laneCount = context.lanesPerConnection();
        Deadline deadline = Deadline.after(context.timeoutNs());
        int peerWindow = 0;
        String address = Connector.address(target);
        for (int i = 0; i < laneCount; i++) {
            HelloDescriptor.Hello hello = new HelloDescriptor.Hello(peer.qpn(), qp.qpn(), i, laneCount, window, psn,
                    shared ? HelloDescriptor.SHARED : HelloDescriptor.SPLIT);
            Connector.Opened opened = Connector.open(context.address(), target, hello, context.token(), context.heartbeatNs(), deadline);
            SocketChannel ch = opened.channel();
            peerWindow = opened.peerWindow();
            context.applyCongestion(ch); // this side's lanes carry the data
            try {
                lanes.add(new OutboundLane(i, ch, shared, address, context.timeoutNs(), context.heartbeatNs(), qp, senderName(i)));
                if (shared) readers.add(receiver(ch, address, i, context.timeoutNs())); // the peer speaks once it is RTR
            } catch (IOException e) {
                Connector.closeQuietly(ch);
                throw new VerbsException("cannot set up lane " + i + " to " + peer.gid() + ": " + e, e);
            }
        }
        return peerWindow;
    }

    /**
     * The accepting side's lanes, pending until the peer opens their sockets. A peer that is gone already
     * fails the connect, as a refused connect does; one that goes before opening them is noticed by lane
     * 0's probes (see {@link LaneSocket}), not by waiting out JCCL_TIMEOUT.
     */
    private void pendingLanes(ConnectInfo peer, int window, int psn, int laneCount, List<OutboundLane> lanes) {
        LaneSocket.PeerCheck check = budgetNs -> probe(peer, window, psn, budgetNs);
        String gone = check.whyGone(context.timeoutNs());
        if (gone != null) {
            throw new VerbsException("qp " + qp.qpn() + " cannot wait for " + peer.gid() + " qp " + peer.qpn() + " to open the shared sockets: "
                    + gone);
        }
        for (int i = 0; i < laneCount; i++) {
            try {
                lanes.add(OutboundLane.pending(i, peer.gid() + " qp " + peer.qpn(), context.timeoutNs(), context.heartbeatNs(), qp,
                        senderName(i), i == 0 ? check : null)); // one probe per connection: lane 0 asks for all
            } catch (IOException e) {
                throw new VerbsException("cannot set up lane " + i + " for " + peer.gid() + ": " + e, e);
            }
        }
    }

    private String probe(ConnectInfo peer, int window, int psn, long budgetNs) {
        HelloDescriptor.Hello hello = new HelloDescriptor.Hello(peer.qpn(), qp.qpn(), 0, 1, window, psn, HelloDescriptor.PROBE);
        return Connector.probe(context.address(), parseGid(peer.gid()), hello, context.token(), context.heartbeatNs(), Deadline.after(budgetNs));
    }

    private String senderName(int lane) {
        return "jccl-tcp-send-qp" + qp.qpn() + "-lane" + lane;
    }

    private ReceiverAgent receiver(SocketChannel ch, String peer, int lane, long firstSilenceNs) throws IOException {
        return new ReceiverAgent(ch, peer, lane, qp, context.silenceNs(), firstSilenceNs, "jccl-tcp-recv-qp" + qp.qpn() + "-lane" + lane,
                qp.completionQueues());
    }

    /**
     * Takes an inbound socket the listener authenticated; returns "" or why it is refused. Reading
     * starts with {@link #startLane}, after the listener has written its verdict on the socket. When
     * the refused socket comes from the very peer this queue pair waits for (its sockets cannot fit
     * ours), the queue pair fails now rather than after JCCL_TIMEOUT.
     */
    String attach(HelloDescriptor.Hello h, SocketChannel ch, String peer) {
        Verdict v = verdict(h, ch, peer);
        if (v.breaksQp()) qp.breakQp("peer " + peer + " cannot connect: " + v.refusal());
        return v.refusal();
    }

    private record Verdict(String refusal, boolean breaksQp) {}

    private synchronized Verdict verdict(HelloDescriptor.Hello h, SocketChannel ch, String peer) {
        if (closed) return new Verdict("qp " + qp.qpn() + " is closed", false);
        String shape = remote == null ? null : role(remote).mismatch(qp.qpn(), h, outbound.count());
        if (shape != null) return new Verdict(shape, h.sourceQpn() == remote.qpn() && h.psn() == remote.psn());
        String refusal = mismatch(h, remote);
        if (refusal == null && inboundHello != null && (h.sourceQpn() != inboundHello.sourceQpn() || h.laneCount() != inboundHello.laneCount()
                || h.window() != inboundHello.window() || h.psn() != inboundHello.psn() || h.shared() != inboundHello.shared())) {
            refusal = "qp " + qp.qpn() + " is already reached by qp " + inboundHello.sourceQpn() + " (" + inboundHello.laneCount()
                    + " lanes, psn " + inboundHello.psn() + (inboundHello.shared() ? ", shared" : "") + "), not qp " + h.sourceQpn() + " ("
                    + h.laneCount() + " lanes, psn " + h.psn() + (h.shared() ? ", shared" : "") + ")";
        }
        if (refusal != null) return new Verdict(refusal, false);
        if (inboundHello == null) {
            inboundHello = h;
            inbound = new ReceiverAgent[h.laneCount()];
        }
        if (inbound[h.lane()] != null) return new Verdict("lane " + h.lane() + " of qp " + qp.qpn() + " is already connected", false);
        try {
            inbound[h.lane()] = receiver(ch, peer, h.lane(), context.silenceNs());
        } catch (IOException e) {
            return new Verdict("qp " + qp.qpn() + " cannot take lane " + h.lane() + ": " + e, false);
        }
        return new Verdict("", false);
    }

    /** Starts reading lane {@code lane}, attached before; called once the peer was told it is accepted. */
    void startLane(int lane) {
        ReceiverAgent agent;
        synchronized (this) {
            if (closed || inbound == null || lane < 0 || lane >= inbound.length) return;
            agent = inbound[lane];
        }
        if (agent == null) return;
        try {
            agent.start();
        } catch (IOException e) {
            qp.receiverFailed(agent, e);
            return;
        }
        synchronized (this) {
            if (closed) return; // close() closes the agent
            ReceiverAgent[] s = Arrays.copyOf(started, started.length + 1);
            s[s.length - 1] = agent;
            started = s;
            if (outbound != null && role(remote) == SocketRole.ACCEPTOR) attachShared(lane, agent.channel()); // else connect attaches it
        }
    }

    /** Gives pending lane {@code lane} its socket. Caller holds the lock. */
    private void attachShared(int lane, SocketChannel ch) {
        context.applyCongestion(ch);
        try {
            outbound.lane(lane).attach(ch);
        } catch (IOException e) {
            qp.laneFailed(outbound.lane(lane), e);
        }
    }

    /** Tells the receivers that a receive was posted, in case a message waits for it. */
    void receivePosted() {
        for (ReceiverAgent a : started) a.receivePosted();
    }

    synchronized HelloDescriptor.Hello inboundHello() {
        return inboundHello;
    }

    ConnectInfo remote() {
        return remote;
    }

    OutboundLanes outbound() {
        return outbound;
    }

    String describe() {
        return description;
    }

    /** Lets pending NAKs and ACKs out, then shuts our sending side; the peer sees end of stream. */
    void shutdown() {
        OutboundLanes lanes = outbound;
        if (lanes != null) lanes.shutdown();
    }

    /** Closes every socket and joins every thread (each bounded). */
    void close() {
        ReceiverAgent[] in;
        synchronized (this) {
            closed = true;
            in = inbound;
        }
        OutboundLanes lanes = outbound;
        if (lanes != null) lanes.close();
        if (in != null) for (ReceiverAgent a : in) if (a != null) a.close();
    }

    private String mismatch(HelloDescriptor.Hello h, ConnectInfo peer) {
        if (h == null || peer == null || (h.sourceQpn() == peer.qpn() && h.psn() == peer.psn())) return null;
        return "qp " + qp.qpn() + " was reached by qp " + h.sourceQpn() + " psn " + h.psn() + " but is connected to qp "
                + peer.qpn() + " psn " + peer.psn() + " at " + peer.gid();
    }

    static InetSocketAddress parseGid(String gid) {
        int colon = gid.lastIndexOf(':');
        try {
            if (colon <= 0) throw new IllegalArgumentException("no ':'");
            int port = Integer.parseInt(gid.substring(colon + 1));
            if (port < 1 || port > 65535) throw new IllegalArgumentException("port " + port + " outside [1, 65535]");
            return new InetSocketAddress(InetAddress.ofLiteral(gid.substring(0, colon)), port);
        } catch (IllegalArgumentException e) {
            throw new VerbsException("tcp connect info gid '" + gid + "' is not 'ip:port': " + e.getMessage(), e);
        }
    }
}
