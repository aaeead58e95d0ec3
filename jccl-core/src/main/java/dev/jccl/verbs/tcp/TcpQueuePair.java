package dev.jccl.verbs.tcp;

import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.LocalRegion;
import dev.jccl.verbs.base.QpStateMachine;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.channels.SocketChannel;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;

/**
 * An RC queue pair over sockets: the {@link Requester} half for the send queue, the {@link Responder}
 * half for the peer's requests, both over one {@link TcpConnection}.
 *
 * <p>Posting never blocks: a request becomes frames queued on the outbound lanes, written inline when
 * the socket has room, otherwise by the lane's sender thread (see {@link OutboundLane}). Any failure
 * (NAK, malformed frame, lost socket) moves the queue pair to ERR exactly once: outstanding sends and
 * posted receives are flushed, and our sockets are shut after pending control frames, so the peer
 * notices at once and goes to ERR too.
 */
final class TcpQueuePair implements QueuePair, InboundSink, OutboundLane.FailureHandler, Responder.Breaker {
    private static final SecureRandom RANDOM = new SecureRandom();

    private final TcpContext context;
    private final TcpProtectionDomain pd;
    private final int qpn;
    private final int psn = RANDOM.nextInt(1 << 24);
    private final QpStateMachine state;
    private final TcpCompletionQueue sendCq;
    private final TcpCompletionQueue recvCq;
    private final Requester requester;
    private final ClaimedReceives receives;
    private final Responder responder;
    private final TcpConnection connection;
    private final FrameDispatch dispatch;
    private volatile boolean closed;
    private volatile Runnable enteringErr = () -> { };
    private volatile boolean receiverThreadsHeld;

    TcpQueuePair(TcpContext context, TcpProtectionDomain pd, int qpn, TcpCompletionQueue sendCq,
                 TcpCompletionQueue recvCq, int sendDepth, int recvDepth, long inlineMaxBytes) {
        this.context = context;
        this.pd = pd;
        this.qpn = qpn;
        this.state = new QpStateMachine(qpn);
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.requester = new Requester(sendDepth, sendCq, qpn, psn, inlineMaxBytes);
        this.receives = new ClaimedReceives(recvDepth, recvCq, qpn);
        this.responder = new Responder(pd.regions(), receives, context.rnrTimeoutNs(), this);
        this.connection = new TcpConnection(this, context);
        this.dispatch = new FrameDispatch(requester, responder, (n, status, wireSeq, why) ->
                fail(n, status, "peer " + peerName("(not connected)") + " refused seq " + wireSeq + ": " + why));
    }

    @Override public int qpn() { return qpn; }
    @Override public QpState state() { return state.state(); }
    @Override public String describe() { return connection.describe(); }

    @Override
    public ConnectInfo localInfo() {
        return new ConnectInfo(TcpProvider.NAME, qpn, 0, context.gid(), psn);
    }

    @Override
    public void modifyToInit() {
        state.toInit();
    }

    @Override
    public void modifyToRtr(ConnectInfo remote) {
        if (state.state() != QpState.INIT) {
            throw new IllegalStateException("qp " + qpn + ": illegal transition " + state.state() + " -> RTR (only INIT -> RTR is allowed)");
        }
        if (!TcpProvider.NAME.equals(remote.provider())) {
            throw new VerbsException("qp " + qpn + " is tcp; cannot connect to a '" + remote.provider() + "' queue pair");
        }
        OutboundLanes lanes = connection.connect(remote, requester.window(), psn);
        try {
            state.toRtr();
        } catch (IllegalStateException e) {
            lanes.close();
            throw e;
        }
        Log.info(Subsys.NET, "%s", connection.describe());
    }

    @Override
    public void modifyToRts() {
        state.toRts();
    }

    @Override
    public void modifyToError() {
        fail(-1, WcStatus.WR_FLUSH_ERR, "qp " + qpn + " was moved to ERR by the application");
    }

    @Override
    public boolean postSend(SendWr wr) {
        if (!state.canPostSend()) throw new VerbsException("qp " + qpn + ": postSend needs RTS, state is " + state.state());
        // The region and an offset in it rather than a view: nothing is allocated per request.
        LocalRegion region = pd.regions().checkLocal(wr.localAddress(), wr.length(), wr.lkey(), wr.opcode() == Opcode.RDMA_READ);
        MemorySegment local = region == null ? MemorySegment.NULL : region.segment();
        long localOffset = region == null ? 0 : wr.localAddress() - region.address();
        // In ERR the request is flushed, but through the requester, never straight onto the CQ: the
        // state turns ERR (fail below) before the requester completes the failing request. A flush
        // pushed here in between (a NAK handled on a receiver thread while this thread posts) would
        // reach the CQ ahead of the REM_ACCESS_ERR of an earlier request, against RC order.
        if (state.state() == QpState.ERR) return requester.postInError(wr);
        return requester.post(wr, local, localOffset, connection.outbound());
    }

    /** Two SENDs or WRITEs of one frame each leave together ({@link Requester#postPair}); anything else goes one by one. */
    @Override
    public int postSend(SendWr first, SendWr second) {
        if (!pairable(first) || !pairable(second) || state.state() != QpState.RTS) return QueuePair.super.postSend(first, second);
        LocalRegion a = pd.regions().checkLocal(first.localAddress(), first.length(), first.lkey(), false);
        LocalRegion b = pd.regions().checkLocal(second.localAddress(), second.length(), second.lkey(), false);
        return requester.postPair(first, a == null ? MemorySegment.NULL : a.segment(), a == null ? 0 : first.localAddress() - a.address(),
                second, b == null ? MemorySegment.NULL : b.segment(), b == null ? 0 : second.localAddress() - b.address(), connection.outbound());
    }

    @Override
    public boolean coalescesListPosts() {
        return true;
    }

    private boolean pairable(SendWr wr) {
        return wr.opcode() != Opcode.RDMA_READ && connection.outbound().oneFrame(wr.length());
    }

    @Override
    public boolean postRecv(RecvWr wr) {
        if (!state.canPostRecv()) throw new VerbsException("qp " + qpn + ": postRecv needs INIT or later, state is " + state.state());
        boolean posted = receives.post(wr.wrId(), pd.regions().resolveLocal(wr.local(), true));
        if (posted) connection.receivePosted();
        return posted;
    }

    /** The queues whose consumers may read this queue pair's sockets: every completion lands on one of them. */
    TcpCompletionQueue[] completionQueues() {
        return new TcpCompletionQueue[] {sendCq, recvCq};
    }

    /** Moves to ERR once: completes request {@code n} with {@code status}, flushes everything else. */
    void fail(long n, WcStatus status, String detail) {
        if (!state.toErr()) return;
        enteringErr.run();
        Log.info(Subsys.NET, "qp %d: %s; moving to ERR", qpn, detail);
        requester.fail(n, status, detail);
        responder.flush(detail);
        connection.shutdown();
    }

    /**
     * Runs on the failing thread after the move to ERR and before any completion of it is pushed, so a
     * test can hold that window open and post into it.
     */
    void onEnteringErr(Runnable hook) {
        enteringErr = hook;
    }

    /**
     * Holds this queue pair's receiver threads (as a loaded host deschedules them) or lets them go,
     * so a test sees what the consumers do alone. Never set outside tests.
     */
    void holdReceiverThreads(boolean hold) {
        receiverThreadsHeld = hold;
    }

    @Override
    public boolean receiverThreadsHeld() {
        return receiverThreadsHeld;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        fail(-1, WcStatus.WR_FLUSH_ERR, "qp " + qpn + " was closed");
        connection.close();
        context.forget(this);
        pd.forget(this);
    }

    /** How many requests this queue pair may have in flight: the peer's responder checks sequence numbers against it. */
    int window() {
        return requester.window();
    }

    /** "" while this queue pair may still connect, else its state. */
    String probe() {
        return closed || state.state() == QpState.ERR ? "qp " + qpn + " is in state " + state.state() : "";
    }

    String attach(HelloDescriptor.Hello hello, SocketChannel ch, String peer) {
        String refusal = probe();
        return refusal.isEmpty() ? connection.attach(hello, ch, peer) : refusal;
    }

    void startLane(int lane) {
        connection.startLane(lane);
    }

    // ---- receiver threads ----

    @Override
    public boolean awaitReady() {
        Deadline deadline = Deadline.after(context.timeoutNs());
        BackoffIdleStrategy idle = WaitPolicy.stateWait();
        while (true) {
            QpState s = state.state();
            if (s == QpState.RTR || s == QpState.RTS) break;
            if (s == QpState.ERR || closed) return false;
            if (deadline.expired()) {
                fail(-1, WcStatus.WR_FLUSH_ERR, "peer qp connected but qp " + qpn + " did not reach RTR within "
                        + TimeUnit.NANOSECONDS.toSeconds(context.timeoutNs()) + " s (JCCL_TIMEOUT)");
                return false;
            }
            idle.idle();
        }
        ConnectInfo remote = connection.remote();
        responder.start(remote.psn(), connection.inboundHello().window(), connection.outbound(), remote.gid());
        return true;
    }

    @Override
    public MemorySegment begin(FrameCodec h, long firstTriedNs, InboundStream.Landing at) throws IOException {
        return dispatch.begin(h, firstTriedNs, at);
    }

    @Override
    public void end(FrameCodec h, MemorySegment payload) throws IOException {
        dispatch.end(h, payload);
    }

    @Override
    public boolean sending() {
        OutboundLanes lanes = connection.outbound();
        return lanes != null && lanes.sending();
    }

    @Override
    public void flushAcks() {
        OutboundLanes lanes = connection.outbound();
        if (lanes != null) lanes.flushAck();
    }

    @Override
    public void flushAcksIfDue(long nowNs) {
        OutboundLanes lanes = connection.outbound();
        if (lanes != null) lanes.flushAckIfDue(nowNs);
    }

    @Override
    public void receiverFailed(ReceiverAgent in, IOException cause) {
        String what = cause instanceof MalformedFrameException ? "malformed frame from peer " + peerName(in.peer) + " on lane "
                + in.lane : "connection from peer " + peerName(in.peer) + " lost";
        if (cause instanceof MalformedFrameException) Log.warn(Subsys.NET, "qp %d: %s: %s", qpn, what, cause.getMessage());
        fail(-1, WcStatus.WR_FLUSH_ERR, what + ": " + cause.getMessage());
    }

    @Override
    public void laneFailed(OutboundLane lane, IOException cause) {
        fail(-1, WcStatus.WR_FLUSH_ERR, "connection to peer " + peerName(lane.peer) + " lost (lane " + lane.index + "): "
                + cause.getMessage());
    }

    /** The peer's listener and queue pair once known, else the socket's remote address. */
    private String peerName(String socketAddress) {
        ConnectInfo r = connection.remote();
        return r == null ? socketAddress : r.gid() + " qp " + r.qpn();
    }

    @Override
    public void breakQp(String detail) {
        fail(-1, WcStatus.WR_FLUSH_ERR, detail);
    }
}
