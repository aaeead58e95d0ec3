package dev.jccl.verbs.shm;

import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.PeerMemory;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import dev.jccl.verbs.base.OutstandingSends;
import dev.jccl.verbs.base.QpStateMachine;

import java.lang.foreign.Arena;
import java.util.concurrent.ThreadLocalRandom;

/**
 * An RC queue pair over shared memory. Sends run inline in {@link #postSend} (one copy, then the
 * completion); receive completions appear when a CQ it is attached to is polled.
 *
 * <p>Files: this queue pair creates the file its peer sends through (its receive ring and the
 * notification ring, see {@link QpFileCodec}); at RTR it maps the peer's file to send through.
 *
 * <p>Flushing receives safely. A sender fills a receive buffer between {@code enter()} and
 * {@code leave()} on the receiver's file and re-reads the receiver's state after entering. On the
 * way to ERR the receiver volatile-stores ERR, then waits for {@code busy} to read 0, and only then
 * flushes. Store-then-load on both sides (Dekker): either the sender sees ERR and backs off, or the
 * receiver sees it inside and waits; so once a receive is flushed, no sender writes into its buffer.
 * The wait is skipped when the peer is known gone, and is bounded by JCCL_TIMEOUT.
 *
 * <p>Locks: the send lock (ShmSendQueue) may be held while taking the receive lock (ShmRecvQueue),
 * never the reverse; {@link #progress} holds this object's monitor, which serializes progress with
 * {@link #close} so no thread reads a mapping after it is released.
 */
final class ShmQueuePair implements QueuePair {
    private final ShmContext context;
    private final ShmProtectionDomain pd;
    private final int qpn;
    private final QpStateMachine state;
    private final ShmCompletionQueue sendCq;
    private final ShmCompletionQueue recvCq;
    private final Arena arena = Arena.ofShared();
    private final QpFileCodec file;
    private final ShmSendQueue sendQueue;
    private final ShmRecvQueue recvQueue;
    private final ConnectInfo localInfo;
    private volatile RemoteContext peer;
    private volatile QpFileCodec peerQp;
    private volatile String description;
    private boolean closed; // guarded by this

    ShmQueuePair(ShmProtectionDomain pd, QpInitAttr attr, int qpn) {
        this.context = pd.context();
        this.pd = pd;
        this.qpn = qpn;
        this.state = new QpStateMachine(qpn);
        this.sendCq = context.ownCq(attr.sendCq());
        this.recvCq = context.ownCq(attr.recvCq());
        if (attr.maxRecvWr() > QpFileDescriptor.MAX_CAPACITY) {
            throw new VerbsException("qp receive depth " + attr.maxRecvWr() + " exceeds the shm maximum "
                    + QpFileDescriptor.MAX_CAPACITY);
        }
        try {
            this.file = QpFileCodec.create(context.paths().qp(qpn), arena, qpn, attr.maxRecvWr(),
                    context.pid(), context.lid(), pd.id());
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
        file.publishState(QpState.RESET.ordinal());
        this.sendQueue = new ShmSendQueue(this, sendCq, new LocalSges(pd.regions(), context.allocations()), attr.maxSendWr());
        this.recvQueue = new ShmRecvQueue(file, new LocalSges(pd.regions(), context.allocations()), recvCq, qpn);
        this.localInfo = new ConnectInfo(ShmProvider.NAME, qpn, context.lid(), context.paths().control().toString(),
                ThreadLocalRandom.current().nextInt() & 0xFFFFFF);
        this.description = "qp " + qpn + " (not connected) via SHM " + file.path();
        sendCq.attach(this);
        if (recvCq != sendCq) recvCq.attach(this);
    }

    @Override public int qpn() { return qpn; }
    @Override public QpState state() { return state.state(); }
    @Override public ConnectInfo localInfo() { return localInfo; }
    @Override public String describe() { return description; }
    boolean inError() { return state.state() == QpState.ERR; }
    RemoteContext peer() { return peer; }

    @Override
    public void modifyToInit() {
        state.toInit();
        file.publishState(QpState.INIT.ordinal());
    }

    @Override
    public void modifyToRtr(ConnectInfo remote) {
        if (!ShmProvider.NAME.equals(remote.provider())) {
            throw new VerbsException("shm qp " + qpn + " cannot connect to a '" + remote.provider()
                    + "' peer: both sides of a queue pair must use the same provider");
        }
        if (state.state() != QpState.INIT) state.toRtr(); // throws, naming both states
        ShmPaths paths = ShmPaths.ofControl(remote.gid(), context.paths().dir());
        Deadline deadline = Deadline.after(context.timeoutNs());
        RemoteContext rc = context.attachPeer(paths, remote.lid(), deadline);
        try {
            QpFileCodec pq = rc.attachQp(remote.qpn(), deadline);
            state.toRtr();
            peer = rc;
            peerQp = pq;
            sendQueue.connect(new Delivery(rc, pq, sendCq, context.lid(), qpn, context.rnrTimeoutNs(), context.timeoutNs()));
            file.publishPeer(rc.lid(), remote.qpn());
            file.publishCrossReads(context.crossReads() && rc.crossReadable());
            file.publishState(QpState.RTR.ordinal());
            description = "qp " + qpn + " -> pid " + rc.pid() + " qp " + remote.qpn() + " via SHM " + pq.path();
            Log.info(Subsys.SHM, "%s", description);
        } catch (RuntimeException e) {
            if (peer != rc) context.detachPeer(rc);
            throw e;
        }
    }

    @Override
    public PeerMemory openPeerMemory() {
        RemoteContext rc = peer;
        QpFileCodec pq = peerQp;
        return rc == null || pq == null ? null : new ShmPeerMemory(rc, pq.pdId());
    }

    @Override
    public boolean peerReadsPrivate() {
        QpFileCodec pq = peerQp;
        return context.crossReads() && pq != null && pq.crossReads();
    }

    @Override
    public void modifyToRts() {
        state.toRts();
        file.publishState(QpState.RTS.ordinal());
    }

    @Override
    public void modifyToError() {
        toError("qp " + qpn + " was moved to ERR by its owner", false);
    }

    @Override
    public boolean postSend(SendWr wr) {
        QpState s = state.state();
        if (s == QpState.ERR) {
            flushNow(wr);
            return true;
        }
        if (s != QpState.RTS) throw new VerbsException("qp " + qpn + ": postSend needs state RTS, qp is in " + s);
        return sendQueue.post(wr);
    }

    @Override
    public boolean postRecv(RecvWr wr) {
        if (!state.canPostRecv()) {
            throw new VerbsException("qp " + qpn + ": postRecv needs state INIT or later, qp is in " + state.state());
        }
        return recvQueue.post(wr);
    }

    /** Completes {@code wr} with WR_FLUSH_ERR without executing it (the queue pair is in ERR). */
    void flushNow(SendWr wr) {
        sendCq.push(wr.wrId(), WcStatus.WR_FLUSH_ERR, OutstandingSends.toWc(wr.opcode()), 0, 0, false, qpn,
                "qp " + qpn + " is in ERR");
    }

    /**
     * Retries waiting sends and notices a peer queue pair that went to ERR or closed; for the
     * watchdog, which completes no receives (a poller does, see below). Returns the work done.
     */
    synchronized int progress() {
        return progress(null, null, 0);
    }

    /**
     * What {@link #progress()} does, and when {@code polling} is this queue pair's receive CQ, writes
     * the receives the peer notified straight into {@code out} from {@code from}. Returns how many
     * completions it wrote. Receives drained here never pass through a CQ ring, so only the one
     * consumer of the receive CQ may take them, and it takes them in order.
     */
    synchronized int progress(ShmCompletionQueue polling, WorkCompletion[] out, int from) {
        if (closed) return 0;
        QpFileCodec pq = peerQp;
        // Read the peer's state before draining: what it notified before going to ERR is drained below
        // or, when the queue pair goes to ERR, by the flush.
        int peerState = pq == null ? -1 : pq.state();
        int n = polling != null && polling == recvCq ? recvQueue.drainInto(out, from) : 0;
        int sends = sendQueue.progress();
        if (out == null) n += sends;
        String failure = recvQueue.takeFailure();
        if (failure != null) {
            toError(failure, false);
        } else if (peerState >= QpState.ERR.ordinal() && !inError()) {
            toError("peer qp " + pq.qpn() + " (pid " + pq.pid() + ") went to " + Delivery.stateName(peerState), false);
        }
        return n;
    }

    /** Receives the peer notified that are not completed yet, when {@code polling} is the receive CQ; else 0. */
    long notifiedReceives(ShmCompletionQueue polling) {
        return polling == recvCq ? recvQueue.notified() : 0;
    }

    /** The watchdog found the peer gone: flush at once, without waiting on the peer. */
    void peerLost(String cause) {
        toError("qp " + qpn + ": " + cause, true);
    }

    /** Moves to ERR once and flushes both queues (see the class comment for the ordering). */
    void toError(String why, boolean peerGone) {
        if (!state.toErr()) return;
        file.publishState(QpState.ERR.ordinal());
        if (!peerGone) awaitSendersLeft();
        sendQueue.flush(why);
        recvQueue.flush(why);
        Log.info(Subsys.SHM, "qp %d moved to ERR: %s", qpn, why);
    }

    private void awaitSendersLeft() {
        if (file.busy() == 0) return;
        RemoteContext rc = peer;
        Deadline deadline = Deadline.after(context.timeoutNs());
        BackoffIdleStrategy idle = WaitPolicy.stateWait();
        while (file.busy() != 0) {
            if (deadline.expired() || (rc != null && rc.pidVisible() && !Processes.isAlive(rc.pid()))) return;
            idle.idle();
        }
    }

    @Override
    public void close() {
        toError("qp " + qpn + " was closed by its owner", false);
        synchronized (this) {
            if (closed) return;
            closed = true;
            sendQueue.close();
            recvQueue.close();
            file.publishState(QpFileDescriptor.STATE_CLOSED);
        }
        sendCq.detach(this);
        recvCq.detach(this);
        arena.close();
        ShmFiles.deleteQuietly(file.path());
        RemoteContext rc = peer;
        if (rc != null) context.detachPeer(rc);
        pd.forget(this);
    }
}
