package dev.jccl.provider.ucx;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.LocalRegion;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;


/**
 * A queue pair's endpoint to its peer and the control traffic on it: key requests and replies,
 * revocations, goodbye, and how a lost peer is noticed. Runs under the worker lock.
 */
final class PeerLink {
    private final UcxQueuePair qp;
    private final Set<Integer> servedKeys = new HashSet<>();       // rkeys of ours the peer fetched
    private final Map<Long, Runnable> revocations = new HashMap<>(); // token -> run when the peer has dropped it
    private long nextRevocation = 1;
    private MemorySegment ep;
    private long errToken;
    private int peerQpn = -1;
    private PeerAddress peer;
    private long peerContext;
    private String transports = "(not connected)";
    private boolean peerLost;
    private java.util.Optional<ProcessHandle> peerProcess;

    PeerLink(UcxQueuePair qp) {
        this.qp = qp;
    }

    MemorySegment ep() { return ep; }
    int peerQpn() { return peerQpn; }
    String transports() { return transports; }

    /**
     * Creates the endpoint. Across hosts with error mode PEER, so UCX reports a lost peer; on one host
     * without, because UCX 1.13 offers its shared-memory transports only then, and the pid is watched.
     */
    void connect(PeerAddress to, int qpn, long contextId) {
        UcxContext ctx = qp.context();
        boolean sameHost = to.sameHostAs(ctx.address());
        if (sameHost && to.pid() == ctx.address().pid() && !UcxContext.isLive(contextId)) {
            throw new VerbsException("qp " + qp.qpn() + ": the peer's UCX context " + contextId + " in this process is closed");
        }
        errToken = UcpCallbacks.register((UcpCallbacks.EpFailure) st -> ctx.later(() -> {
            peerLost = true;
            qp.fail(-1, WcStatus.RETRY_EXC, "UCX reports the peer unreachable: " + Ucp.statusText(st), false);
        }));
        try {
            ep = ctx.worker().connect(to.workerAddress(), !sameHost, errToken);
        } catch (RuntimeException e) {
            UcpCallbacks.forget(errToken);
            throw new VerbsException("qp " + qp.qpn() + ": cannot reach the peer at " + to.host() + " pid " + to.pid()
                    + ": " + e.getMessage(), e);
        }
        peer = to;
        peerQpn = qpn;
        peerContext = contextId;
        transports = UcxTransports.ofEndpoint(ctx.worker().endpointInfo(ep));
        if (!transports.endsWith(" memory")) ctx.waits().networkPeerConnected();
    }

    /** Why the peer is known to be gone (same host only: its context or process), or null. */
    String peerGone() {
        if (peer == null || !peer.sameHostAs(qp.context().address())) return null;
        if (peer.pid() == qp.context().address().pid()) {
            return UcxContext.isLive(peerContext) ? null : "the peer's UCX context " + peerContext + " has closed";
        }
        if (peerProcess == null) peerProcess = ProcessHandle.of(peer.pid()); // once: checked every 250 ms
        boolean alive = peerProcess.isPresent() && peerProcess.get().isAlive();
        if (alive) return null;
        peerLost = true;
        return "the peer process " + peer.pid() + " on this host is gone";
    }

    /** Sends on the queue pair's own endpoint, carrying the acknowledgement it owes, if any. */
    void send(int kind, long seq, int imm, long a, long b, int flags, int status, long data, long bytes) {
        long ack = ep == null || ep.address() == 0 ? 0 : qp.owedAck().take();
        sendVia(ep, peerQpn, kind, seq, imm, a, b, flags, status, data, bytes, ack);
    }

    private void sendVia(MemorySegment via, int dst, int kind, long seq, int imm, long a, long b, int flags, int status,
                         long data, long bytes) {
        sendVia(via, dst, kind, seq, imm, a, b, flags, status, data, bytes, 0);
    }

    private void sendVia(MemorySegment via, int dst, int kind, long seq, int imm, long a, long b, int flags, int status,
                         long data, long bytes, long ack) {
        if (via == null || via.address() == 0) return; // nowhere to send: the peer learns through its own checks
        UcxContext ctx = qp.context();
        MemorySegment header = ctx.headers().take();
        AmDescriptor.write(header, kind, dst, qp.qpn(), imm, seq, a, b, flags, status, ack);
        UcxOp op = ctx.ops().take(UcxOp.AM_SEND, qp, seq);
        op.header = header;
        op.amKind = kind;
        ctx.worker().amSend(via, header, data, bytes, op);
    }

    /** Key requests and replies, revocations and their acknowledgements. */
    void control(Inbound in) {
        AmDescriptor.Header h = in.header;
        MemorySegment back = ep != null ? ep : MemorySegment.ofAddress(in.replyEp);
        switch (h.kind()) {
            case AmDescriptor.RKEY_REQUEST -> serveKey(h, back);
            case AmDescriptor.RKEY_REPLY -> {
                if ((h.flags() & AmDescriptor.FLAG_FOUND) == 0 || ep == null) {
                    qp.sender().keyArrived(h.imm(), null);
                    return;
                }
                MemorySegment handle = in.length == 0 || !in.holdsData() ? null
                        : UcpMemory.unpack(ep, UcpText.bytes(MemorySegment.ofAddress(in.data), in.length));
                qp.sender().keyArrived(h.imm(), new RemoteKey(h.imm(), h.a(), h.b(),
                        (h.flags() & AmDescriptor.FLAG_REMOTE_WRITE) != 0, (h.flags() & AmDescriptor.FLAG_REMOTE_READ) != 0,
                        handle));
            }
            case AmDescriptor.REVOKE -> {
                qp.sender().forgetKey(h.imm());
                sendVia(back, h.srcQpn(), AmDescriptor.REVOKE_ACK, h.seq(), h.imm(), 0, 0, 0, 0, 0, 0);
            }
            case AmDescriptor.REVOKE_ACK -> {
                Runnable done = revocations.remove(h.seq());
                if (done != null) done.run();
            }
            default -> { }
        }
    }

    private void serveKey(AmDescriptor.Header h, MemorySegment back) {
        LocalRegion r = qp.pd().regions().byRkey(h.imm());
        UcxProtectionDomain.Mapping m = r == null || !r.valid() ? null : qp.pd().mapping(r);
        if (m == null) {
            sendVia(back, h.srcQpn(), AmDescriptor.RKEY_REPLY, 0, h.imm(), 0, 0, 0, 0, 0, 0);
            return;
        }
        int flags = AmDescriptor.FLAG_FOUND
                | (r.access().contains(Access.REMOTE_WRITE) ? AmDescriptor.FLAG_REMOTE_WRITE : 0)
                | (r.access().contains(Access.REMOTE_READ) ? AmDescriptor.FLAG_REMOTE_READ : 0);
        servedKeys.add(h.imm());
        sendVia(back, h.srcQpn(), AmDescriptor.RKEY_REPLY, 0, h.imm(), r.address(), r.length(), flags, 0,
                m.packedNative().address(), m.packedNative().byteSize());
    }

    boolean revoke(int rkey, Runnable acked) {
        if (!servedKeys.remove(rkey) || ep == null || !qp.isUsable()) return false;
        long token = nextRevocation++;
        revocations.put(token, acked);
        send(AmDescriptor.REVOKE, token, rkey, 0, 0, 0, 0, 0, 0);
        return true;
    }

    /** The queue pair went to ERR: say goodbye if asked, and stop waiting for revocations. */
    void failed(boolean tellPeer) {
        if (tellPeer) send(AmDescriptor.BYE, 0, 0, 0, 0, 0, 0, 0, 0);
        for (Runnable r : revocations.values()) r.run();
        revocations.clear();
    }

    /** Closes the endpoint (flushing the goodbye first unless the peer is lost); sets {@code closed} when done. */
    void close(AtomicBoolean closed) {
        if (ep == null) return;
        closed.set(false);
        MemorySegment e = ep;
        ep = null;
        long token = errToken;
        qp.context().worker().close(e, peerLost, qp.context().completion((st, len) -> {
            UcpCallbacks.forget(token);
            closed.set(true);
        }));
    }
}
