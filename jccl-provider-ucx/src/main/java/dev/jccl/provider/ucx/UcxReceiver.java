package dev.jccl.provider.ucx;

import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.ReceiveQueue;

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
            ReceiveQueue.Posted r = receives.poll();
            if (r == null) return;
            deliver(in, r);
        }
    }

    private void deliver(Inbound in, ReceiveQueue.Posted r) {
        AmDescriptor.Header h = in.header;
        if (h.kind() == AmDescriptor.WRITE_IMM) {
            arrived.pollFirst();
            qp.context().release(in);
            qp.recvCq().push(r.wrId(), WcStatus.SUCCESS, WcOpcode.RECV_RDMA_WITH_IMM, h.b(), h.imm(), true, qp.qpn(), "");
            qp.acknowledge(h.seq());
            return;
        }
        long bytes = h.b();
        if (bytes > r.buffer().byteSize()) {
            arrived.pollFirst();
            qp.context().release(in);
            String why = "a SEND of " + bytes + " bytes does not fit the posted receive of " + r.buffer().byteSize();
            qp.recvCq().push(r.wrId(), WcStatus.LOC_LEN_ERR, WcOpcode.RECV, 0, 0, false, qp.qpn(), why);
            qp.refuse(h.seq(), WcStatus.REM_INV_REQ_ERR, why);
            qp.fail(-1, WcStatus.WR_FLUSH_ERR, why, true);
            return;
        }
        if (!in.rendezvous) {
            arrived.pollFirst();
            if (bytes > 0) MemorySegment.copy(UcpText.view(in.data, bytes), 0, r.buffer(), 0, bytes);
            qp.context().release(in);
            received(r, bytes, h.seq());
            return;
        }
        in.receiving = true;
        qp.context().worker().amRecvData(in.data, r.buffer().address(), bytes, qp.context().completion((st, len) -> {
            arrived.remove(in);
            if (st == UCS_OK) {
                received(r, bytes, h.seq());
                drain();
            } else {
                String why = "receiving a rendezvous SEND failed: " + Ucp.statusText(st);
                qp.recvCq().push(r.wrId(), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, false, qp.qpn(), why);
                qp.fail(-1, WcStatus.WR_FLUSH_ERR, why, true);
            }
        }));
    }

    private void received(ReceiveQueue.Posted r, long bytes, long seq) {
        qp.recvCq().push(r.wrId(), WcStatus.SUCCESS, WcOpcode.RECV, bytes, 0, false, qp.qpn(), "");
        qp.acknowledge(seq);
    }

    /** Refuses messages that waited past the RNR timeout with no receive posted. */
    void expire(long nowNs, long rnrTimeoutNs) {
        while (!arrived.isEmpty() && receives.size() == 0) {
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
