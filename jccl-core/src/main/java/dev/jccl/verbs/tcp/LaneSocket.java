package dev.jccl.verbs.tcp;

import java.io.IOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The socket an {@link OutboundLane} writes, and the selector its sender thread waits on: for room to
 * write, and, on a send-only socket, for the peer going away (the peer never writes there, so the
 * socket turns readable only at its end). A shared socket is read by its {@link ReceiverAgent}, so the
 * selector never asks for reads. A pending lane has no socket yet; {@link #attach} gives it one once.
 */
final class LaneSocket {
    /** Asks whether the peer of a pending lane is still there to open its socket. */
    interface PeerCheck {
        /** Null when it is, else why not; blocks at most {@code budgetNs}. */
        String whyGone(long budgetNs);
    }

    private final boolean shared;
    private final PeerCheck peerCheck; // pending lanes only
    private final Selector selector;
    private static final long SELECT_MS = 100;
    private volatile SocketChannel channel; // null while pending; set once
    private SelectionKey key;
    private boolean abandoned; // under the lane's write lock: shut while pending, its sender thread gone
    private boolean peerSpoke; // sender thread only: the socket became readable in the last select
    /** Made once: a select with an action keeps no selected-key set, which allocates on every wake-up. */
    private final Consumer<SelectionKey> onReady = k -> peerSpoke |= k.isReadable();

    LaneSocket(SocketChannel channel, boolean shared, PeerCheck peerCheck) throws IOException {
        this.shared = shared;
        this.peerCheck = peerCheck;
        this.selector = Selector.open();
        if (channel != null) attach(channel);
    }

    /**
     * Makes the socket non-blocking and watches it; false if the lane has one already, or was shut or closed
     * while pending (then the peer sees the end of the stream, as the sender thread would have shown it).
     * Called under the lane's write lock.
     */
    boolean attach(SocketChannel ch) throws IOException {
        if (channel != null) return false;
        if (abandoned) {
            ch.shutdownOutput();
            return false;
        }
        ch.configureBlocking(false);
        try {
            key = ch.register(selector, idleOps());
        } catch (ClosedSelectorException e) {
            return false; // the lane closed meanwhile; the socket's reader closes it
        }
        channel = ch;
        selector.wakeup();
        return true;
    }

    private int idleOps() {
        return shared ? 0 : SelectionKey.OP_READ;
    }

    /** The socket, or null while the lane is pending. */
    SocketChannel channel() {
        return channel;
    }

    /**
     * A pending lane waits for its socket at most {@code timeoutNs}, asking whether the peer is still
     * there after a heartbeat, then at doubling intervals up to 8 heartbeats, each probe bounded by two
     * heartbeats; false when the lane shuts first.
     */
    boolean awaitAttached(BooleanSupplier closing, long timeoutNs, long heartbeatNs, String peer, int lane) throws IOException {
        long sinceNs = System.nanoTime();
        long probedNs = sinceNs;
        long probeEveryNs = heartbeatNs;
        while (channel == null) {
            if (closing.getAsBoolean()) return false;
            long now = System.nanoTime();
            if (peerCheck != null && now - probedNs >= probeEveryNs) {
                String gone = peerCheck.whyGone(Math.min(2 * heartbeatNs, Math.max(1, timeoutNs - (now - sinceNs))));
                if (gone != null && channel == null) throw new IOException("peer " + peer + " went before opening lane " + lane + ": " + gone);
                probedNs = System.nanoTime();
                probeEveryNs = Math.min(8 * heartbeatNs, 2 * probeEveryNs); // a peer that is late is asked less and less often
            }
            if (now - sinceNs > timeoutNs) {
                throw new IOException("peer " + peer + " did not open lane " + lane + " within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNs)
                        + " s (JCCL_TIMEOUT): this listener may have refused it (its log says why: JCCL_AUTH_TOKEN, JCCL_TCP_SHARED_SOCKETS)");
            }
            awaitIdle(SELECT_MS);
        }
        return true;
    }

    /** The sender thread of a lane shut while pending ends, unless the socket came meanwhile. Under the lane's write lock. */
    boolean abandonIfPending() {
        abandoned = channel == null;
        return abandoned;
    }

    /** Waits up to {@code ms} for a wake-up (a pending lane: for its socket), or on a send-only socket for the peer's end. */
    void awaitIdle(long ms) throws IOException {
        selector.select(onReady, ms);
    }

    /** Waits up to {@code ms} for room to write. */
    void awaitWritable(long ms) throws IOException {
        key.interestOps(idleOps() | SelectionKey.OP_WRITE);
        selector.select(onReady, ms);
        key.interestOps(idleOps());
    }

    /** On a send-only socket that turned readable: end of stream or bytes from the peer both end it. */
    void checkPeerStillThere(String peer, int lane) throws IOException {
        if (peerSpoke) Connector.checkSendOnly(channel, peer, lane);
        peerSpoke = false;
    }

    void wakeup() {
        selector.wakeup();
    }

    /** Closes the socket (a shared one for its reader too) and wakes the sender thread; {@link #closeSelector} once it is gone. */
    void close() {
        Connector.closeQuietly(channel);
        selector.wakeup();
    }

    void closeSelector() {
        Connector.closeQuietly(selector);
    }
}
