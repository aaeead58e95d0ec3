package dev.jccl.provider.ucx;

import java.util.Arrays;

/**
 * A context's queue pairs by qpn, for the data path: an array copied on change (queue pairs come
 * and go rarely), read without a lock, a boxed key or an iterator, so routing each arrival and the
 * agent's periodic duties allocate nothing. qpns are small and grow from 1 within a context.
 */
final class QpTable {
    private volatile UcxQueuePair[] byQpn = new UcxQueuePair[8];

    synchronized void put(UcxQueuePair qp) {
        int qpn = qp.qpn();
        UcxQueuePair[] t = byQpn.length > qpn ? byQpn.clone() : Arrays.copyOf(byQpn, Math.max(2 * byQpn.length, qpn + 1));
        t[qpn] = qp;
        byQpn = t;
    }

    synchronized void remove(UcxQueuePair qp) {
        int qpn = qp.qpn();
        if (qpn >= byQpn.length || byQpn[qpn] != qp) return;
        UcxQueuePair[] t = byQpn.clone();
        t[qpn] = null;
        byQpn = t;
    }

    UcxQueuePair get(int qpn) {
        UcxQueuePair[] t = byQpn;
        return qpn > 0 && qpn < t.length ? t[qpn] : null;
    }

    /** Runs every queue pair's periodic duties. */
    void tick(long nowNs, boolean checkPeers) {
        for (UcxQueuePair qp : byQpn) if (qp != null) qp.tick(nowNs, checkPeers);
    }
}
