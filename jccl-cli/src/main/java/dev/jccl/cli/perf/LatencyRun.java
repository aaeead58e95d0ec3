package dev.jccl.cli.perf;

import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WorkCompletion;
import org.HdrHistogram.Histogram;

/**
 * Ping-pong on the first queue pair: the initiator sends, the responder answers each message with one
 * of its own, and half the round trip is one sample. WRITE latency uses RDMA_WRITE_WITH_IMM so the
 * arrival is seen through the completion queue, the way the collectives see it.
 */
final class LatencyRun {
    private static final int RECV_DEPTH = 16;

    private LatencyRun() {}

    /**
     * Posts, once per run, the receives both sides keep topped up: each covers the whole buffer, so
     * they serve every message size.
     */
    static void preRecv(PerfEndpoint ep) {
        for (int i = 0; i < RECV_DEPTH; i++) {
            if (!ep.qps[0].postRecv(new RecvWr(i, ep.mr.sge(0, ep.mr.length())))) return;
        }
    }

    /** Returns one-way latency samples in nanoseconds (initiator) or null (responder). */
    static Histogram run(PerfEndpoint ep, Opcode opcode, long size, int iters, int warmup, boolean initiator) {
        Histogram h = new Histogram(3_600_000_000_000L, 3);
        WorkCompletion[] wcs = WorkCompletion.array(4);
        Sge local = ep.mr.sge(0, size);
        int total = iters + warmup;
        for (int i = 0; i < total; i++) {
            if (initiator) {
                long t0 = System.nanoTime();
                post(ep, opcode, local, i);
                awaitReceive(ep, wcs);
                long oneWay = (System.nanoTime() - t0) / 2;
                if (i >= warmup) h.recordValue(Math.max(1, oneWay));
            } else {
                awaitReceive(ep, wcs);
                post(ep, opcode, local, i);
            }
        }
        return initiator ? h : null;
    }

    private static void post(PerfEndpoint ep, Opcode opcode, Sge local, long id) {
        // Unsignaled: the reply proves delivery, and skipping send completions keeps the loop short.
        SendWr wr = opcode == Opcode.SEND ? SendWr.send(id, local).unsignaled()
                : SendWr.writeWithImm(id, local, ep.peer.address(), ep.peer.rkey(), (int) id).unsignaled();
        if (!ep.qps[0].postSend(wr)) throw new IllegalStateException("send queue full in a ping-pong");
    }

    private static void awaitReceive(PerfEndpoint ep, WorkCompletion[] wcs) {
        int n = ep.await(wcs);
        for (int i = 0; i < n; i++) {
            ep.qps[0].postRecv(new RecvWr(wcs[i].wrId(), ep.mr.sge(0, ep.mr.length())));
        }
    }
}
