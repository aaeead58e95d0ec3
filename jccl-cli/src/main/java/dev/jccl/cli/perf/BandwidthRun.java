package dev.jccl.cli.perf;

import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WorkCompletion;

/**
 * One size of a bandwidth test on one side: post up to {@code txDepth} messages round-robin over the
 * queue pairs, keep that many in flight, and (for SEND) keep receives posted and reposted.
 *
 * <p>Both directions of a bidirectional run and the passive side of a SEND test are the same loop
 * with different targets, so one loop serves them all.
 */
final class BandwidthRun {
    /** Bytes moved and the time they took; {@code peakBps} is the best window of completions. */
    record Result(long bytes, long messages, long elapsedNs, double peakBps) {
        double averageBps() {
            return elapsedNs == 0 ? 0 : bytes * 1e9 / elapsedNs;
        }
    }

    private BandwidthRun() {}

    /** Posts the receives a SEND test needs before the peer starts sending; returns how many. */
    static int preRecv(PerfEndpoint ep, long size, long recvTarget, int rxDepth) {
        int posted = 0;
        for (int q = 0; q < ep.qps.length; q++) {
            for (int i = 0; i < rxDepth && posted < recvTarget; i++) {
                if (!ep.qps[q].postRecv(new RecvWr(q, ep.mr.sge(0, size)))) break;
                posted++;
            }
        }
        return posted;
    }

    /**
     * @param sendTarget messages this side sends (0 on the passive side)
     * @param recvTarget SEND messages this side must receive (0 unless SEND test and passive or -b)
     * @param recvPosted receives already posted by {@link #preRecv}
     */
    static Result run(PerfEndpoint ep, Opcode opcode, long size, long sendTarget, long recvTarget, long recvPosted,
                      int txDepth) {
        WorkCompletion[] wcs = WorkCompletion.array(64);
        Sge local = ep.mr.sge(0, size);
        long window = Math.max(1, sendTarget / 16);
        long posted = 0;
        long sent = 0;
        long received = 0;
        long windowStart = System.nanoTime();
        long windowBase = 0;
        double peak = 0;
        long t0 = System.nanoTime();
        while (sent < sendTarget || received < recvTarget) {
            while (posted < sendTarget && posted - sent < txDepth) {
                SendWr wr = switch (opcode) {
                    case SEND -> SendWr.send(posted, local);
                    case RDMA_READ -> SendWr.read(posted, local, ep.peer.address(), ep.peer.rkey());
                    default -> SendWr.write(posted, local, ep.peer.address(), ep.peer.rkey());
                };
                if (!ep.qps[(int) (posted % ep.qps.length)].postSend(wr)) break;
                posted++;
            }
            int n = ep.await(wcs);
            for (int i = 0; i < n; i++) {
                if (wcs[i].opcode() == WcOpcode.RECV) {
                    received++;
                    if (recvPosted < recvTarget) {
                        int q = ep.qpIndex(wcs[i].qpn());
                        if (ep.qps[q].postRecv(new RecvWr(q, ep.mr.sge(0, size)))) recvPosted++;
                    }
                } else {
                    sent++;
                }
            }
            if (sent - windowBase >= window) {
                long now = System.nanoTime();
                peak = Math.max(peak, (sent - windowBase) * size * 1e9 / Math.max(1, now - windowStart));
                windowStart = now;
                windowBase = sent;
            }
        }
        long elapsed = System.nanoTime() - t0;
        long messages = Math.max(sent, received);
        Result r = new Result(messages * size, messages, elapsed, 0);
        return new Result(r.bytes(), messages, elapsed, Math.max(peak, r.averageBps()));
    }
}
