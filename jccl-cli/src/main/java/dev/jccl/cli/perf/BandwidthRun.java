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

        /** Messages per second; for 0-byte messages the only rate there is. */
        double messagesPerSecond() {
            return elapsedNs == 0 ? 0 : messages * 1e9 / elapsedNs;
        }
    }

    private BandwidthRun() {}

    /**
     * How many receives each queue pair must post over a SEND test of {@code recvTarget} messages:
     * message k travels on queue pair k % qps, so each one gets its own share, never a global count
     * (reposting from a global count lets one queue pair take another's receives, and the starved
     * one's SENDs then fail with RNR).
     */
    static long[] recvShares(long recvTarget, int qps) {
        long[] shares = new long[qps];
        for (int q = 0; q < qps; q++) shares[q] = recvTarget / qps + (q < recvTarget % qps ? 1 : 0);
        return shares;
    }

    /**
     * Posts the receives a SEND test needs before the peer starts sending: up to {@code rxDepth} per
     * queue pair, taken from {@code toPost} (that queue pair's receives still to post).
     */
    static void preRecv(PerfEndpoint ep, long size, long[] toPost, int rxDepth) {
        for (int q = 0; q < ep.qps.length; q++) {
            for (int i = 0; i < rxDepth && toPost[q] > 0; i++) {
                if (!ep.qps[q].postRecv(new RecvWr(q, ep.mr.sge(0, size)))) break;
                toPost[q]--;
            }
        }
    }

    /**
     * @param sendTarget messages this side sends (0 on the passive side)
     * @param recvTarget SEND messages this side must receive (0 unless SEND test and passive or -b)
     * @param toPost     receives each queue pair still has to post, after {@link #preRecv}; consumed here
     */
    static Result run(PerfEndpoint ep, Opcode opcode, long size, long sendTarget, long recvTarget, long[] toPost,
                      int txDepth) {
        WorkCompletion[] wcs = WorkCompletion.array(64);
        Sge local = ep.mr.sge(0, size);
        // When each message was posted and seen complete, to find the best stretch afterwards (the peak).
        int slots = (int) Math.max(sendTarget, recvTarget);
        long[] postedAt = new long[slots];
        long[] doneAt = new long[slots];
        long posted = 0;
        long sent = 0;
        long received = 0;
        long t0 = System.nanoTime();
        while (sent < sendTarget || received < recvTarget) {
            while (posted < sendTarget && posted - sent < txDepth) {
                SendWr wr = switch (opcode) {
                    case SEND -> SendWr.send(posted, local);
                    case RDMA_READ -> SendWr.read(posted, local, ep.peer.address(), ep.peer.rkey());
                    default -> SendWr.write(posted, local, ep.peer.address(), ep.peer.rkey());
                };
                long at = System.nanoTime();
                if (!ep.qps[(int) (posted % ep.qps.length)].postSend(wr)) break;
                postedAt[(int) posted] = at;
                posted++;
            }
            int n = ep.await(wcs);
            long now = System.nanoTime();
            for (int i = 0; i < n; i++) {
                if (wcs[i].opcode() == WcOpcode.RECV) {
                    received++;
                    if (sendTarget == 0) doneAt[(int) received - 1] = now;
                    int q = ep.qpIndex(wcs[i].qpn());
                    if (toPost[q] > 0 && ep.qps[q].postRecv(new RecvWr(q, ep.mr.sge(0, size)))) toPost[q]--;
                } else {
                    doneAt[(int) sent] = now;
                    sent++;
                }
            }
        }
        long elapsed = System.nanoTime() - t0;
        long messages = Math.max(sent, received);
        long[] startAt = sendTarget > 0 ? postedAt : doneAt;
        double average = elapsed == 0 ? 0 : messages * size * 1e9 / elapsed;
        // A window of post-to-completion times can include a full queue's worth of waiting, so it
        // may come out below the average; the peak is never less than the average.
        return new Result(messages * size, messages, elapsed,
                Math.max(average, peakBps(startAt, doneAt, (int) messages, size)));
    }

    /**
     * The best bandwidth over any run of an eighth of the messages, timed from the first one's post
     * to the last one's completion being seen. Completions are seen in bursts, so timing from
     * completion to completion would overstate the peak; post-to-completion never does.
     */
    static double peakBps(long[] startAt, long[] doneAt, int messages, long size) {
        int w = Math.max(1, messages / 8);
        double best = 0;
        for (int i = 0; i + w <= messages; i++) {
            long dt = doneAt[i + w - 1] - startAt[i];
            if (dt > 0) best = Math.max(best, (double) w * size * 1e9 / dt);
        }
        return best;
    }
}
