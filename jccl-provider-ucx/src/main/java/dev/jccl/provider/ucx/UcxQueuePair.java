package dev.jccl.provider.ucx;

import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.LocalRegion;
import dev.jccl.verbs.base.OutstandingSends;
import dev.jccl.verbs.base.QpStateMachine;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static dev.jccl.provider.ucx.UcpLayouts.UCS_OK;

/**
 * An RC queue pair over one UCX endpoint to the peer's worker. Its send queue is {@link UcxSender},
 * its receive queue {@link UcxReceiver}; control traffic (acknowledgements, key requests, goodbye)
 * travels as active messages addressed by qpn ({@link AmDescriptor}). Posting takes the worker lock
 * briefly and never waits for the network.
 */
final class UcxQueuePair implements QueuePair {
    private final UcxContext ctx;
    private final UcxProtectionDomain pd;
    private final int qpn;
    private final UcxCompletionQueue sendCq;
    private final UcxCompletionQueue recvCq;
    private final QpStateMachine state;
    private final OutstandingSends outstanding;
    private final UcxSender sender;
    private final UcxReceiver receiver;
    private final PeerLink link;
    private final OwedAck owedAck = new OwedAck(this);
    private final List<Runnable> untilConnected = new ArrayList<>(); // replies waiting for our endpoint
    private boolean closed;

    UcxQueuePair(UcxContext ctx, UcxProtectionDomain pd, int qpn, UcxCompletionQueue sendCq, UcxCompletionQueue recvCq,
                 int sendDepth, int recvDepth) {
        this.ctx = ctx;
        this.pd = pd;
        this.qpn = qpn;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.state = new QpStateMachine(qpn);
        this.outstanding = new OutstandingSends(sendDepth);
        this.sender = new UcxSender(this, sendDepth);
        this.receiver = new UcxReceiver(this, recvDepth);
        this.link = new PeerLink(this);
    }

    @Override public int qpn() { return qpn; }
    @Override public QpState state() { return state.state(); }
    UcxContext context() { return ctx; }
    UcxProtectionDomain pd() { return pd; }
    UcxCompletionQueue sendCq() { return sendCq; }
    UcxCompletionQueue recvCq() { return recvCq; }
    OutstandingSends outstanding() { return outstanding; }
    MemorySegment ep() { return link.ep(); }
    boolean isUsable() { return state.state() != QpState.ERR; }

    @Override
    public ConnectInfo localInfo() {
        return new ConnectInfo(UcxProvider.NAME, qpn, ctx.id(), ctx.address().encode(), 0);
    }

    @Override
    public void modifyToInit() {
        state.toInit();
    }

    @Override
    public void modifyToRtr(ConnectInfo remote) {
        if (!UcxProvider.NAME.equals(remote.provider())) {
            throw new VerbsException("qp " + qpn + ": connect info of provider '" + remote.provider() + "', not ucx");
        }
        if (state.state() != QpState.INIT) state.toRtr(); // throws, naming both states
        PeerAddress peer = PeerAddress.decode(remote.gid());
        ctx.locked(() -> {
            link.connect(peer, remote.qpn(), remote.lid());
            state.toRtr();
            for (Runnable r : untilConnected) r.run();
            untilConnected.clear();
        });
        Log.info(Subsys.NET, "%s", describe());
    }

    @Override
    public void modifyToRts() {
        state.toRts();
    }

    @Override
    public void modifyToError() {
        ctx.locked(() -> fail(-1, WcStatus.WR_FLUSH_ERR, "qp " + qpn + " was moved to ERR by the application", true));
    }

    /**
     * Reads {@code wr} only within this call: the sender keeps a copy of what it needs (the caller
     * reuses it). Allocates nothing: no lambda, no slice, no record (the steady state is garbage-free).
     */
    @Override
    public boolean postSend(SendWr wr) {
        if (!state.canPostSend()) throw new VerbsException("qp " + qpn + ": postSend needs RTS, state is " + state.state());
        long address = wr.localAddress();
        long length = wr.length();
        LocalRegion region = pd.regions().checkLocal(address, length, wr.lkey(), wr.opcode() == Opcode.RDMA_READ);
        ctx.enter();
        try {
            long seq = outstanding.add(wr.wrId(), wr.opcode(), length, wr.signaled());
            if (seq == OutstandingSends.FULL) return false;
            if (state.state() == QpState.ERR) {
                outstanding.flush(sendCq, qpn, "qp " + qpn + " is in ERR");
            } else {
                UcxProtectionDomain.Mapping m = region == null ? null : pd.mapping(region);
                sender.post(seq, wr, region == null ? 0 : address, m == null ? null : m.memh());
            }
            return true;
        } finally {
            ctx.exit();
        }
    }

    @Override
    public boolean postRecv(RecvWr wr) {
        if (!state.canPostRecv()) throw new VerbsException("qp " + qpn + ": postRecv needs INIT or later, state is " + state.state());
        MemorySegment buffer = pd.regions().resolveLocal(wr.local(), true);
        ctx.enter();
        try {
            if (state.state() != QpState.ERR) return receiver.post(wr.wrId(), buffer);
            recvCq.push(wr.wrId(), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, false, qpn, "qp " + qpn + " is in ERR");
            return true;
        } finally {
            ctx.exit();
        }
    }

    /**
     * Sends a SEND or WRITE_WITH_IMM to the peer's queue pair. {@code bytes} of {@code data} travel
     * with it (none for the immediate of a large write, whose data went by put; then
     * {@code written} says how much that put wrote). Memory stays the caller's until acknowledged.
     */
    void sendMessage(int kind, long seq, int imm, long remoteAddress, int rkey, long data, long bytes, long written) {
        link.send(kind, seq, imm, remoteAddress, Math.max(bytes, written), rkey, 0, data, bytes);
    }

    void sendMessage(int kind, long seq, int imm, long remoteAddress, int rkey, long data, long bytes) {
        sendMessage(kind, seq, imm, remoteAddress, rkey, data, bytes, 0);
    }

    void requestKey(int rkey) {
        link.send(AmDescriptor.RKEY_REQUEST, 0, rkey, 0, 0, 0, 0, 0, 0);
    }

    /** The peer's request {@code seq} was delivered; the acknowledgement may ride on our next message. */
    void acknowledge(long seq) {
        if (link.ep() == null) reply(AmDescriptor.ACK, seq, 0, 0); else owedAck.owe(seq);
    }

    void sendAck(long seq) {
        link.send(AmDescriptor.ACK, seq, 0, 0, 0, 0, 0, 0, 0);
    }

    OwedAck owedAck() {
        return owedAck;
    }

    void refuse(long seq, WcStatus status, String why) {
        Log.info(Subsys.NET, "qp %d: refusing request %d of the peer with %s: %s", qpn, seq, status, why);
        reply(AmDescriptor.NAK, seq, 0, status.ordinal());
    }

    /** A reply goes out now if we have an endpoint, else once RTR has made one. */
    private void reply(int kind, long seq, int imm, int status) {
        Runnable r = () -> link.send(kind, seq, imm, 0, 0, 0, status, 0, 0);
        if (link.ep() != null) r.run(); else untilConnected.add(r);
    }

    /** Tells the peer to forget {@code rkey} if it fetched it; {@code acked} runs when it has. */
    boolean revoke(int rkey, Runnable acked) {
        return link.revoke(rkey, acked);
    }

    /** An active message for this queue pair (run as an event, under the lock). */
    void received(Inbound in) {
        AmDescriptor.Header h = in.header;
        if (h.ack() != 0) sender.completed(h.ack() - 1, UCS_OK, "send");
        switch (h.kind()) {
            case AmDescriptor.SEND, AmDescriptor.WRITE_IMM -> {
                if (state.state() == QpState.ERR || state.state() == QpState.RESET) {
                    ctx.release(in);
                    refuse(h.seq(), WcStatus.WR_FLUSH_ERR, "qp " + qpn + " is " + state.state());
                } else {
                    receiver.arrived(in);
                }
            }
            case AmDescriptor.ACK -> sender.completed(h.seq(), UCS_OK, "send");
            case AmDescriptor.NAK -> {
                WcStatus[] all = WcStatus.values();
                WcStatus st = h.status() > 0 && h.status() < all.length ? all[h.status()] : WcStatus.RETRY_EXC;
                fail(h.seq(), st, "the peer refused request " + h.seq() + " with " + st, true);
            }
            case AmDescriptor.BYE -> fail(-1, WcStatus.WR_FLUSH_ERR, "the peer qp " + h.srcQpn() + " closed or failed", false);
            default -> link.control(in);
        }
        if (h.kind() != AmDescriptor.SEND && h.kind() != AmDescriptor.WRITE_IMM) ctx.release(in);
    }

    UcxSender sender() {
        return sender;
    }

    void tick(long nowNs, boolean checkPeer) {
        if (!isUsable()) return;
        receiver.expire(nowNs, ctx.rnrTimeoutNs());
        if (checkPeer) {
            String gone = link.peerGone();
            if (gone != null) fail(-1, WcStatus.RETRY_EXC, gone, false);
        }
    }

    /** Moves to ERR once: request {@code seq} completes with {@code status}, everything else flushes. */
    void fail(long seq, WcStatus status, String detail, boolean tellPeer) {
        if (!state.toErr()) return;
        Log.info(Subsys.NET, "qp %d: %s; moving to ERR", qpn, detail);
        sender.clear();
        outstanding.fail(seq, status, detail, sendCq, qpn);
        receiver.flush(detail);
        owedAck.pay(); // what was delivered stays delivered: the peer hears so before the goodbye
        link.failed(tellPeer);
    }

    @Override
    public String describe() {
        return "qp " + qpn + " -> peer qp " + link.peerQpn() + " via NET/UCX " + link.transports();
    }

    @Override
    public void close() {
        AtomicBoolean endpointClosed = new AtomicBoolean(true);
        boolean first = ctx.locked(() -> {
            if (closed) return false;
            closed = true;
            fail(-1, WcStatus.WR_FLUSH_ERR, "qp " + qpn + " was closed", true);
            link.close(endpointClosed);
            return true;
        });
        if (!first) return;
        // The goodbye must leave before the worker goes: the endpoint closes in flush mode (bounded).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        BackoffIdleStrategy idle = WaitPolicy.stateWait();
        while (!endpointClosed.get() && System.nanoTime() < deadline) {
            idle.idle(ctx.tryProgress());
        }
        ctx.forget(this);
        ctx.locked(() -> pd.forget(this));
    }
}
