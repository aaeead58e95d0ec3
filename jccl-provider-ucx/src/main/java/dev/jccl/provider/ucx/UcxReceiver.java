package dev.jccl.provider.ucx;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.ReceiveQueue;
import dev.jccl.verbs.base.RemoteAccessException;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

import static dev.jccl.provider.ucx.UcpLayouts.UCS_OK;

/**
 * The receive side of one queue pair: SENDs and immediates that arrived, matched in arrival order
 * with receives in posting order. All methods run under the worker lock.
 *
 * <p>A message with no receive posted waits here, holding UCX's buffer (eager data kept past its
 * callback, or the rendezvous descriptor), until a receive is posted or {@code JCCL_RNR_TIMEOUT}
 * has passed; then the sender gets RNR_RETRY_EXC, as an RC sender does when its retries run out.
 * Large SENDs arrive by rendezvous: {@code ucp_am_recv_data_nbx} places them straight into the
 * posted buffer, and later messages wait until that is done, so receive completions stay in order.
 */
final class UcxReceiver {
    private final UcxQueuePair qp;
    private final ReceiveQueue receives;
    private final ArrayDeque<Inbound> arrived = new ArrayDeque<>();

    UcxReceiver(UcxQueuePair qp, int depth) {
        this.qp = qp;
        this.receives = new ReceiveQueue(depth);
    }

    boolean post(long wrId, MemorySegment buffer) {
        if (!receives.offer(wrId, buffer)) return false;
        drain();
        return true;
    }

    void arrived(Inbound in) {
        arrived.addLast(in);
        drain();
    }

    /** Delivers waiting messages into posted receives, oldest first. */
    void drain() {
        while (!arrived.isEmpty() && qp.isUsable()) {
            Inbound in = arrived.peekFirst();
            if (in.receiving) return;
            if (receives.isEmpty()) return;
            if (!writable(in)) continue;
            long wrId = receives.headWrId();
            MemorySegment buffer = receives.headBuffer();
            receives.removeHead();
            deliver(in, wrId, buffer);
        }
    }

    /**
     * A WRITE_WITH_IMM that carries its data names its target by rkey (in {@code flags}): resolved
     * here, through the same table a peer's key request reads, before a receive is consumed.
     * A refused one is dropped with REM_ACCESS_ERR to the sender and the region is untouched.
     */
    private boolean writable(Inbound in) {
        AmDescriptor.Header h = in.header;
        if (h.kind() != AmDescriptor.WRITE_IMM || in.length == 0) return true;
        try {
            qp.pd().regions().checkRemote(h.a(), in.length, h.flags(), Access.REMOTE_WRITE);
            in.target = h.a(); // checked: inside a region of ours that grants REMOTE_WRITE
            return true;
        } catch (RemoteAccessException e) {
            arrived.pollFirst();
            qp.context().release(in);
            qp.refuse(h.seq(), WcStatus.REM_ACCESS_ERR, e.getMessage());
            return false;
        }
    }

    private void deliver(Inbound in, long wrId, MemorySegment buffer) {
        AmDescriptor.Header h = in.header;
        if (h.kind() == AmDescriptor.WRITE_IMM) {
            // The data lands before the immediate is raised: the receiver may read it on seeing the CQE.
            land(in, in.target, wrId, WcOpcode.RECV_RDMA_WITH_IMM);
            return;
        }
        if (h.b() > buffer.byteSize()) {
            arrived.pollFirst();
            qp.context().release(in);
            String why = "a SEND of " + h.b() + " bytes does not fit the posted receive of " + buffer.byteSize();
            qp.recvCq().push(wrId, WcStatus.LOC_LEN_ERR, WcOpcode.RECV, 0, 0, false, qp.qpn(), why);
            qp.refuse(h.seq(), WcStatus.REM_INV_REQ_ERR, why);
            qp.fail(-1, WcStatus.WR_FLUSH_ERR, why, true);
            return;
        }
        land(in, buffer.address(), wrId, WcOpcode.RECV);
    }

    /**
     * Puts the message's bytes at {@code target} (checked: a posted receive, or a region the rkey
     * grants), then completes receive {@code wrId}: eager data by one copy now, rendezvous data by
     * ucp_am_recv_data_nbx straight into the target (later messages wait).
     */
    private void land(Inbound in, long target, long wrId, WcOpcode opcode) {
        AmDescriptor.Header h = in.header;
        if (!in.rendezvous) {
            arrived.pollFirst();
            if (in.length > 0) MemorySegment.copy(UcpText.ALL, in.data, UcpText.ALL, target, in.length);
            complete(wrId, opcode, h);
            qp.context().release(in); // after the completion read the header: the pool reuses it
            return;
        }
        in.receiving = true;
        qp.context().worker().amRecvData(in.data, target, in.length, qp.context().completion((st, len) -> {
            arrived.remove(in);
            if (st == UCS_OK) {
                complete(wrId, opcode, h);
                drain();
            } else {
                qp.fail(-1, WcStatus.WR_FLUSH_ERR, "receiving a rendezvous message failed: " + Ucp.statusText(st), true);
            }
        }));
    }

    private void complete(long wrId, WcOpcode opcode, AmDescriptor.Header h) {
        boolean imm = opcode == WcOpcode.RECV_RDMA_WITH_IMM;
        qp.recvCq().push(wrId, WcStatus.SUCCESS, opcode, h.b(), imm ? h.imm() : 0, imm, qp.qpn(), "");
        qp.acknowledge(h.seq());
    }

    /** Refuses messages that waited past the RNR timeout with no receive posted. */
    void expire(long nowNs, long rnrTimeoutNs) {
        while (!arrived.isEmpty() && receives.isEmpty()) {
            Inbound in = arrived.peekFirst();
            if (in.receiving || nowNs - in.arrivedNs < rnrTimeoutNs) return;
            arrived.pollFirst();
            qp.context().release(in);
            qp.refuse(in.header.seq(), WcStatus.RNR_RETRY_EXC, "no receive was posted at the peer within "
                    + rnrTimeoutNs / 1_000_000 + " ms (JCCL_RNR_TIMEOUT)");
        }
    }

    /** ERR: every posted receive completes with WR_FLUSH_ERR; waiting messages are dropped. */
    void flush(String why) {
        receives.flush(qp.recvCq(), qp.qpn(), why);
        for (Inbound in : arrived) if (!in.receiving) qp.context().release(in);
        arrived.removeIf(in -> !in.receiving);
    }
}
