package dev.jccl.verbs.tcp;

import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The writing side of one socket to the peer. Everything this queue pair sends travels on its
 * outbound lanes: requests, and replies (ACK, NAK, READ_RESPONSE) to the peer's requests. A shared
 * socket ({@link TcpConnection}) is read by the queue pair's {@link ReceiverAgent}, which also notices
 * the peer going away; a send-only one is read here, only for that. A lane of a socket the peer opens
 * starts pending: frames queue until {@link #attach} gives it the socket ({@link LaneSocket}).
 *
 * <p>Blocking contract: {@link #submit} never blocks. The socket is non-blocking; whoever holds
 * {@code writeLock} writes queued frames until the kernel buffer is full. A posting thread that finds
 * the lock free writes its frames itself (no thread hand-off); what did not fit the socket buffer is
 * left to this lane's sender thread, which waits for writability in a selector. A thread that fails
 * to take the lock leaves its frame queued: the holder looks at the queue again after unlocking (and
 * the sender thread before it sleeps), so no frame is stranded.
 *
 * <p>Control frames (ACK, NAK) overtake queued data at frame boundaries, and a queued ACK is updated
 * in place rather than followed by another. Small frames queued together leave in one
 * gathering write ({@link FrameBatch}); the frames of a list post ({@link #queue}, then {@link #pump})
 * are all queued before anything is written, so they do. On {@link #shutdown} (queue pair in ERR) the lane
 * finishes the frame in progress, writes pending control frames, drops the rest and shuts its output,
 * so a NAK reaches the peer before the end of the stream.
 */
final class OutboundLane implements AutoCloseable {
    /** Told when the socket fails; called with no lane lock held. */
    interface FailureHandler {
        void laneFailed(OutboundLane lane, IOException cause);
    }

    private static final long SELECT_MS = 100;
    private static final int DRAINED = 0, BLOCKED = 1;

    final int index;
    final String peer;
    private final LaneSocket socket;
    private final long timeoutNs;
    private final long heartbeatNs;
    private final FailureHandler onFailure;
    private final Thread agent;
    private final ReentrantLock writeLock = new ReentrantLock();
    private OutFrame current; // guarded by writeLock: the frame partly written, a data frame when currentIsData
    private boolean currentIsData;
    private volatile long dataWritten; // written under writeLock: data frames wholly written (see LaneQueues' tickets)
    private volatile long writes; // written under writeLock: bumped whenever bytes leave, so a slow peer is not a dead one
    private long lastWriteNs = System.nanoTime(); // guarded by writeLock: when bytes last left (a heartbeat is due after a period)
    private final LaneQueues queues = new LaneQueues();
    private final FrameBatch batch = new FrameBatch(); // guarded by writeLock
    /** Made once: a frame of a batch written whole (called under writeLock). */
    private final FrameBatch.Done onWritten = (f, isData) -> {
        if (isData) dataWritten++;
        queues.recycle(f);
    };
    private volatile boolean sending; // the sender thread has frames to write (large ones, or a full socket)
    private volatile boolean closing, closed;

    /** A lane on {@code channel}; {@code shared}: the peer writes on the socket too. */
    OutboundLane(int index, SocketChannel channel, boolean shared, String peer, long timeoutNs, long heartbeatNs,
                 FailureHandler onFailure, String threadName) throws IOException {
        this(index, channel, shared, peer, timeoutNs, heartbeatNs, onFailure, threadName, null);
    }

    /** A pending lane of a shared socket the peer opens; {@code peerCheck} (or null) says meanwhile whether the peer is still there. */
    static OutboundLane pending(int index, String peer, long timeoutNs, long heartbeatNs, FailureHandler onFailure, String threadName,
                                LaneSocket.PeerCheck peerCheck) throws IOException {
        return new OutboundLane(index, null, true, peer, timeoutNs, heartbeatNs, onFailure, threadName, peerCheck);
    }

    private OutboundLane(int index, SocketChannel channel, boolean shared, String peer, long timeoutNs, long heartbeatNs,
                         FailureHandler onFailure, String threadName, LaneSocket.PeerCheck peerCheck) throws IOException {
        this.heartbeatNs = heartbeatNs;
        this.index = index;
        this.peer = peer;
        this.timeoutNs = timeoutNs;
        this.onFailure = onFailure;
        this.socket = new LaneSocket(channel, shared, peerCheck);
        this.agent = Thread.ofPlatform().daemon().name(threadName).unstarted(this::runAgent);
        agent.start();
    }

    /** Gives a pending lane its socket, once the peer has its verdict, and writes what was queued meanwhile. */
    void attach(SocketChannel ch) throws IOException {
        writeLock.lock();
        try {
            if (closed || !socket.attach(ch)) return; // closed: the socket's reader closes it
        } finally {
            writeLock.unlock();
        }
        pump();
    }

    OutFrame obtain() {
        return queues.obtain();
    }

    /**
     * Queues a data frame (request or READ_RESPONSE) behind earlier ones. Never blocks. Returns whether
     * the frame reached the kernel before this call returned (data frames leave in queue order).
     */
    boolean submit(OutFrame frame) {
        long ticket = queue(frame);
        pump();
        return ticket > 0 && left(ticket);
    }

    /**
     * Queues a data frame as {@link #submit} does but writes nothing yet, so the frames of one list post leave
     * together ({@link #pump}); returns the ticket for {@link #left}, or 0 if the lane is closing.
     */
    long queue(OutFrame frame) {
        return queues.queueData(frame, closing);
    }

    /** Writes to the socket that moved bytes so far (a batch of frames counts once). */
    long writeCalls() {
        return writes;
    }

    /** Whether the data frame of {@code ticket} has wholly reached the kernel. */
    boolean left(long ticket) {
        return dataWritten >= ticket;
    }

    /** Queues a NAK ahead of data; it is still sent after {@link #shutdown}. */
    void submitControl(OutFrame frame) {
        queues.queueControl(frame);
        pump();
    }

    /** Tells the peer that every message up to {@code seq} was delivered (cumulative). */
    void ack(long seq) {
        queues.queueAck(seq);
        pump();
    }

    /** Stops taking data; pending control frames still go out, then the output is shut. */
    void shutdown() {
        closing = true;
        socket.wakeup();
    }

    /**
     * Writes inline while the lock is free, whole chunks included; hands what the socket did not take to
     * the sender thread (a hand-off waits for a wake-up and for a core the ranks' callers may keep busy).
     */
    void pump() {
        if (socket.channel() == null) return; // pending: attach pumps
        while (writeLock.tryLock()) {
            int result;
            IOException failure = null;
            try {
                result = drain();
            } catch (IOException e) {
                result = DRAINED;
                failure = e;
            } finally {
                writeLock.unlock();
            }
            if (failure != null) {
                report(failure);
                return;
            }
            if (result != DRAINED) {
                sending = true;
                socket.wakeup();
                return;
            }
            if (!hasQueued()) return;
        }
    }

    /** Caller holds writeLock. Writes until the queue is empty or the socket is full; small frames queued together in one write. */
    private int drain() throws IOException {
        SocketChannel channel = socket.channel();
        while (true) {
            if (current == null) {
                int batched = queues.take(batch, closing);
                if (batched == 0) return DRAINED;
                if (batched > 1) {
                    if (batch.writeTo(channel) > 0) wrote();
                    current = queues.settle(batch, onWritten); // a frame cut short, or a large one whose header went
                    currentIsData = batch.partialIsData();
                    continue;
                }
                current = batch.first();
                currentIsData = batch.partialIsData();
            }
            long before = current.remaining();
            boolean whole = current.writeTo(channel);
            if (current.remaining() != before) wrote();
            if (!whole) return BLOCKED;
            OutFrame done = current;
            current = null;
            if (currentIsData) dataWritten++;
            queues.recycle(done);
        }
    }

    /** Bytes left: a slow peer is not a dead one, and no heartbeat is due for a while. */
    private void wrote() {
        writes++;
        lastWriteNs = System.nanoTime();
    }

    private void runAgent() {
        long stalledSinceNs = 0;
        long writesSeen = -1;
        try {
            if (!socket.awaitAttached(() -> closing, timeoutNs, heartbeatNs, peer, index) && abandoned()) return;
            while (!closed) {
                int result;
                long writesNow;
                long idleNs;
                writeLock.lock();
                try {
                    result = drain();
                    sending = result != DRAINED;
                    writesNow = writes;
                    idleNs = System.nanoTime() - lastWriteNs;
                    // Under the lock, so no inline writer is cut off in the middle of a frame.
                    if (result == DRAINED && closing) {
                        socket.channel().shutdownOutput();
                        return;
                    }
                } finally {
                    writeLock.unlock();
                }
                if (result == DRAINED) {
                    if (idleNs >= heartbeatNs && !closing) {
                        queues.queueHeartbeat();
                        continue;
                    }
                    if (!hasQueued()) socket.awaitIdle(Math.min(SELECT_MS, Math.max(1, (heartbeatNs - idleNs) / 1_000_000)));
                } else {
                    long now = System.nanoTime();
                    if (writesNow != writesSeen) {
                        writesSeen = writesNow;
                        stalledSinceNs = now;
                    } else if (now - stalledSinceNs > timeoutNs) {
                        throw new IOException("peer " + peer + " has not read from lane " + index + " for "
                                + TimeUnit.NANOSECONDS.toSeconds(timeoutNs) + " s (JCCL_TIMEOUT)");
                    }
                    socket.awaitWritable(SELECT_MS);
                }
                socket.checkPeerStillThere(peer, index);
            }
        } catch (ClosedChannelException | ClosedSelectorException | CancelledKeyException e) {
            if (!closed) report(new EOFException("lane " + index + " to " + peer + " was closed"));
        } catch (IOException e) {
            report(e);
        }
    }

    /** Shut while pending: the sender thread ends unless an attach raced in (the loop then ends the stream). */
    private boolean abandoned() {
        writeLock.lock();
        try {
            return socket.abandonIfPending();
        } finally {
            writeLock.unlock();
        }
    }

    /** Whether this lane's sender thread is busy writing (bulk data, or a socket that is full). */
    boolean sending() {
        return sending;
    }

    private boolean hasQueued() {
        return queues.hasQueued(closing);
    }

    private void report(IOException e) {
        if (!closed) onFailure.laneFailed(this, e);
    }

    /** Closes the socket and joins the sender thread (bounded). */
    @Override
    public void close() {
        closed = true;
        closing = true;
        socket.close();
        if (Thread.currentThread() != agent) {
            try {
                agent.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        socket.closeSelector();
    }
}
