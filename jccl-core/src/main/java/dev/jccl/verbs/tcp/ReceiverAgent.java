package dev.jccl.verbs.tcp;

import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * Who reads one socket the peer writes on (one it opened to our listener, or a shared one), and
 * when. Two kinds of thread drive its {@link InboundStream}, one at a time under {@code lock}:
 * <ul>
 *   <li>a consumer waiting on a completion queue of this queue pair ({@link TcpCompletionQueue}):
 *       it sleeps on the socket itself, so the peer's data wakes the very thread that waits for the
 *       completion, and it takes every frame that can land now;</li>
 *   <li>this socket's receiver thread: it takes frames stalled on a receive (handed over by a
 *       consumer or met by itself), and everything while no consumer is watching.</li>
 * </ul>
 * While a consumer watches the socket (polled within 5 ms, or sleeps on it) the receiver thread stays
 * off it, parked, so one arrival wakes one thread. When the consumer stops, what arrives next (and
 * the ACKs it owes) waits for the thread's next look ({@link ConsumerLooks}: when and why).
 *
 * <p>Bulk mode. A frame that must wait for a receive puts the socket in bulk mode: the receiver
 * thread reads everything, as the peer is likely streaming ahead of the receives, and the consumers'
 * selection keys are disarmed so they neither spin on bytes that are not theirs nor wake for them.
 * The socket goes back to the consumers once no such frame has come for {@link #BULK_LINGER_NS}, so
 * the keys change only when the traffic does.
 *
 * <p>The thread starts reading only once its queue pair is RTR, as an RC responder ignores traffic
 * before then. End of stream, a socket error or a malformed frame, whoever meets it, is reported once
 * and moves the queue pair to ERR, before any byte of a malformed frame reaches memory.
 */
final class ReceiverAgent implements InboundStream.Handler {
    private static final Consumer<SelectionKey> IGNORE_KEY = key -> { };

    /** How long a socket stays in bulk mode after its last stalled frame. */
    static final long BULK_LINGER_NS = 2_000_000;
    private static final long SELECT_MS = 100;

    final String peer;
    final int lane;
    /** How long the peer may stay silent (it sends a heartbeat on an idle lane) before the link counts as lost. */
    private final long silenceNs;
    /** The bound before the peer's first frame: on a shared socket we opened, the peer writes once it is RTR (JCCL_TIMEOUT). */
    private final long firstSilenceNs;
    private final InboundStream stream;
    private final InboundSink sink;
    private final ReentrantLock lock = new ReentrantLock();
    private final Selector selector;
    private final Thread thread;
    private final ConsumerKeys consumers;
    private volatile boolean ready;
    private volatile boolean stalled;
    private volatile boolean closed;
    private volatile boolean bulk; // written under lock: the receiver thread reads everything (consumer keys disarmed)
    private long lastHeavyNs;   // guarded by lock: when the last stalled frame began or ended
    private boolean failed;     // guarded by lock
    private final BulkLanePolls idleLane; // guarded by lock; null on lane 0, which every poll reads
    private volatile BackoffIdleStrategy looks = ConsumerLooks.sleeps(this::parkLook); // receiver thread, but for looksForTests

    ReceiverAgent(SocketChannel channel, String peer, int lane, InboundSink sink, long silenceNs, long firstSilenceNs, String threadName,
                  TcpCompletionQueue... consumers) throws IOException {
        this.silenceNs = silenceNs;
        this.firstSilenceNs = firstSilenceNs;
        this.peer = peer;
        this.lane = lane;
        this.sink = sink;
        this.stream = new InboundStream(channel, peer, lane, this);
        this.idleLane = lane == 0 ? null : new BulkLanePolls();
        this.consumers = new ConsumerKeys(consumers);
        this.selector = Selector.open();
        this.thread = Thread.ofPlatform().daemon().name(threadName).unstarted(this::run);
    }

    SocketChannel channel() { return stream.channel(); }

    /** Makes the socket non-blocking, lets the consumers see it, and starts the receiver thread. */
    void start() throws IOException {
        SocketChannel channel = stream.channel();
        channel.configureBlocking(false);
        channel.register(selector, SelectionKey.OP_READ);
        consumers.register(this, channel);
        thread.start();
    }

    // ---- the receiver thread ----

    private void run() {
        try {
            if (!sink.awaitReady()) return;
            lock.lock();
            try {
                stream.heardNow();
            } finally {
                lock.unlock();
            }
            ready = true;
            BackoffIdleStrategy stallIdle = WaitPolicy.stateWait();
            while (!closed) {
                if (sink.receiverThreadsHeld()) {
                    LockSupport.parkNanos(this, 1_000_000);
                    continue;
                }
                int r;
                boolean mine;
                lock.lock();
                try {
                    if (failed) return;
                    r = stream.pump(false);
                    if (r == InboundStream.STALLED) stream.heardNow(); // not reading: the peer's bytes wait in the socket
                    checkSilence();
                    if (bulk && stream.light() && System.nanoTime() - lastHeavyNs > BULK_LINGER_NS) setBulk(false);
                    mine = bulk;
                } catch (IOException | RuntimeException e) {
                    failed = true;
                    throw e;
                } finally {
                    lock.unlock();
                }
                sink.flushAcks();
                stalled = r == InboundStream.STALLED;
                if (stalled) {
                    stallIdle.idle(); // a posted receive unparks us; the RNR bound is checked each round
                    continue;
                }
                stallIdle.reset();
                if (r == InboundStream.PASSED) continue;
                if (mine) looks.reset(); else if (leftToConsumer()) continue; // a watch after bulk mode starts from the grace
                // With an action the selector keeps no selected-key set, whose entries it would
                // allocate on every wake-up; the pump that follows looks at the socket anyway.
                selector.select(IGNORE_KEY, mine ? 1 + BULK_LINGER_NS / 1_000_000 : SELECT_MS);
            }
        } catch (ClosedChannelException | ClosedSelectorException e) {
            if (!closed) report(new IOException("lane " + lane + " from " + peer + " was closed", e));
        } catch (IOException e) {
            report(e);
        } catch (RuntimeException e) {
            report(new IOException("receiver of lane " + lane + " failed: " + e, e));
        } finally {
            closeSelector();
        }
    }

    /**
     * A peer whose host lost its link or died without closing its sockets sends nothing, and TCP
     * itself may not notice for minutes (a keepalive probe that cannot leave the host does not
     * count). A live peer writes at least a heartbeat every JCCL_HEARTBEAT on every lane.
     */
    private void checkSilence() throws IOException {
        long silentNs = System.nanoTime() - stream.lastBytesNs();
        boolean first = stream.frames() == 0 && firstSilenceNs != silenceNs;
        if (silentNs <= (first ? firstSilenceNs : silenceNs)) return;
        throw new IOException("peer " + peer + " sent nothing on lane " + lane + " for " + silentNs / 1_000_000 + (first
                ? " ms since it accepted it (JCCL_TIMEOUT): its queue pair never reached RTR, or its host is gone"
                : " ms (a live peer sends a heartbeat at least every JCCL_HEARTBEAT): its host or link is gone"));
    }

    /** Parks while some consumer watches the socket; false when none does. */
    private boolean leftToConsumer() {
        boolean watched = consumers.watching(System.nanoTime(), ConsumerLooks.GRACE_NS);
        if (watched) looks.idle();
        else looks.reset();
        return watched;
    }

    private void parkLook(long ns) { LockSupport.parkNanos(this, ns); }

    /** Tests: sleeps of {@code ns} between looks while a consumer watches. */
    void looksForTests(long ns) { looks = ConsumerLooks.fixed(ns, this::parkLook); }

    /** A receive was posted: a frame stalled on it may go on now. */
    void receivePosted() {
        if (stalled) LockSupport.unpark(thread);
    }

    // ---- consumers ----

    /**
     * Takes the frames the socket holds now (up to one stalled on a receive); returns how many. Called by a consumer, never blocks.
     * {@code readable}: a selector said the socket has bytes, so an idle bulk lane is looked at too ({@link BulkLanePolls}).
     */
    int consumerPump(boolean readable) {
        if (!ready || !lock.tryLock()) return 0;
        IOException failure = null;
        int taken = 0;
        try {
            if (!failed && !bulk && !closed && (idleLane == null || readable || !idleLane.skip())) {
                long before = stream.frames();
                long heard = stream.lastBytesNs();
                try {
                    if (stream.pump(true) == InboundStream.HEAVY) handOver();
                } finally {
                    taken = (int) (stream.frames() - before);
                    if (idleLane != null) idleLane.looked(stream.lastBytesNs() != heard);
                }
            }
        } catch (IOException e) {
            failed = true;
            failure = e;
        } catch (RuntimeException e) {
            failed = true;
            failure = new IOException("reading lane " + lane + " failed: " + e, e);
        } finally {
            lock.unlock();
        }
        if (failure != null && !(failure instanceof ClosedChannelException)) report(failure);
        return taken;
    }

    void flushAcks() { sink.flushAcks(); }
    void flushAcksIfDue(long nowNs) { sink.flushAcksIfDue(nowNs); }

    /**
     * The silence check of the receiver thread, made by a consumer that polls and finds nothing, so a
     * peer gone silent is noticed as soon as without that thread being scheduled. Never blocks.
     */
    void consumerCheckSilence() {
        if (!ready || closed || !lock.tryLock()) return;
        IOException failure = null;
        try {
            if (!failed) checkSilence();
        } catch (IOException e) {
            failed = true;
            failure = e;
        } finally {
            lock.unlock();
        }
        if (failure != null) report(failure);
    }

    /** Whether bulk data moves on this queue pair's threads: in through this socket or out on its lanes. */
    boolean carryingBulk() {
        return bulk || sink.sending();
    }

    // ---- InboundStream.Handler, called under lock ----

    @Override
    public MemorySegment begin(FrameCodec header, long firstTriedNs, InboundStream.Landing at) throws IOException {
        return sink.begin(header, firstTriedNs, at);
    }

    @Override
    public void end(FrameCodec header, MemorySegment payload) throws IOException {
        sink.end(header, payload);
    }

    @Override
    public void heavy(boolean heavy) {
        lastHeavyNs = System.nanoTime();
        if (heavy) setBulk(true);
    }

    private void setBulk(boolean on) {
        if (bulk == on) return;
        bulk = on;
        consumers.arm(!on);
    }

    /** A consumer met a frame it leaves to the receiver thread: make the thread look now. */
    private void handOver() {
        heavy(true);
        LockSupport.unpark(thread);
        selector.wakeup();
    }

    private void report(IOException e) { if (!closed) sink.receiverFailed(this, e); }

    /** Closes the socket, waits for a consumer inside the stream, and joins the thread (bounded). */
    void close() {
        closed = true;
        Connector.closeQuietly(stream.channel());
        LockSupport.unpark(thread);
        selector.wakeup();
        lock.lock();
        lock.unlock();
        consumers.unregister(this);
        if (Thread.currentThread() != thread && thread.isAlive()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (!thread.isAlive()) closeSelector(); // never started, or done
    }

    private void closeSelector() { Connector.closeQuietly(selector); }
}
