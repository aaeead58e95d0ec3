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
 * The sockets of one queue pair. Each side opens its own {@code laneCount} sockets to the peer's
 * listener and writes only on those (requests and replies alike); it reads only the sockets the peer
 * opened to it, one receiver thread each. So every socket carries one direction, has one writer side
 * and one reader thread, and the two directions never wait on each other: a responder busy sending a
 * large READ_RESPONSE never stops reading, and neither side can deadlock the other through full
 * buffers. Inbound sockets may arrive before this side is RTR; they are checked against the peer named
 * at RTR on whichever happens second.
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

    /** Opens and authenticates every outbound lane to {@code peer}; all or nothing. Blocking, bounded by JCCL_TIMEOUT. */
    OutboundLanes connect(ConnectInfo peer, int window, int psn) {
        InetSocketAddress target = parseGid(peer.gid());
        int laneCount = context.lanesPerConnection();
        Deadline deadline = Deadline.after(context.timeoutNs());
        List<OutboundLane> lanes = new ArrayList<>();
        try {
            for (int i = 0; i < laneCount; i++) {
                HelloDescriptor.Hello hello = new HelloDescriptor.Hello(peer.qpn(), qp.qpn(), i, laneCount, window, psn);
                SocketChannel ch = Connector.open(context.address(), target, hello, context.token(), context.heartbeatNs(),
                        deadline);
                context.applyCongestion(ch); // this side's lanes carry the data
                try {
                    lanes.add(new OutboundLane(i, ch, Connector.address(target), context.timeoutNs(), context.heartbeatNs(), qp,
                            "jccl-tcp-send-qp" + qp.qpn() + "-lane" + i));
                } catch (IOException e) {
                    Connector.closeQuietly(ch);
                    throw new VerbsException("cannot set up lane " + i + " to " + peer.gid() + ": " + e, e);
                }
            }
            synchronized (this) {
                if (closed) throw new VerbsException("qp " + qp.qpn() + " was closed while connecting");
                String mismatch = mismatch(inboundHello, peer);
                if (mismatch != null) throw new VerbsException(mismatch);
                remote = peer;
                outbound = new OutboundLanes(lanes);
            }
        } catch (RuntimeException e) {
            for (OutboundLane l : lanes) l.close();
            throw e;
        }
        description = "qp " + qp.qpn() + " -> " + peer.gid() + " qp " + peer.qpn() + " via NET/Socket "
                + context.deviceLabel() + " (" + laneCount + (laneCount == 1 ? " socket)" : " sockets)");
        return outbound;
    }

    /**
     * Takes an inbound socket the listener authenticated; returns "" or why it is refused. Reading
     * starts with {@link #startLane}, after the listener has written its verdict on the socket.
     */
    synchronized String attach(HelloDescriptor.Hello h, SocketChannel ch, String peer) {
        if (closed) return "qp " + qp.qpn() + " is closed";
        if (inboundHello == null) {
            inboundHello = h;
            inbound = new ReceiverAgent[h.laneCount()];
        } else if (h.sourceQpn() != inboundHello.sourceQpn() || h.laneCount() != inboundHello.laneCount()
                || h.window() != inboundHello.window() || h.psn() != inboundHello.psn()) {
            return "qp " + qp.qpn() + " is already reached by qp " + inboundHello.sourceQpn() + " (" + inboundHello.laneCount()
                    + " lanes, psn " + inboundHello.psn() + "), not qp " + h.sourceQpn() + " (" + h.laneCount()
                    + " lanes, psn " + h.psn() + ")";
        }
        if (inbound[h.lane()] != null) return "lane " + h.lane() + " of qp " + qp.qpn() + " is already connected";
        String mismatch = mismatch(h, remote);
        if (mismatch != null) return mismatch;
        try {
            inbound[h.lane()] = new ReceiverAgent(ch, peer, h.lane(), qp, context.silenceNs(), "jccl-tcp-recv-qp" + qp.qpn() + "-lane" + h.lane(),
                    qp.completionQueues());
        } catch (IOException e) {
            return "qp " + qp.qpn() + " cannot take lane " + h.lane() + ": " + e;
        }
        return "";
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
            ReceiverAgent[] s = Arrays.copyOf(started, started.length + 1);
            s[s.length - 1] = agent;
            started = s;
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
