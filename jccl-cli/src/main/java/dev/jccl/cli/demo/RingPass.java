package dev.jccl.cli.demo;

import dev.jccl.bootstrap.PeerExchange;
import dev.jccl.bootstrap.Rendezvous;
import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.Segments;
import dev.jccl.util.Sizes;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.RemoteBuffer;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.VerbsProvider;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WorkCompletion;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/**
 * One rank of the ring demo. Each rank fills a registered buffer with a pattern only it makes, then
 * for n-1 steps RDMA-writes (with immediate) the newest buffer it holds into the next slot of its
 * right neighbour, and waits for its left neighbour's write into its own slot. After step s a rank
 * holds the buffer of rank (r - s - 1), which it verifies byte for byte against that rank's pattern.
 */
final class RingPass {
    private RingPass() {}

    /** What one step did, as the summary prints it. */
    record Step(int step, int from, int to, int origin, long bytes, double ms, boolean verified, String via) {
        String line() {
            return String.format(Locale.ROOT, "step %d  rank %d -> rank %d  %s of rank %d's buffer  %7.2f ms  %s  over %s",
                    step, from, to, Sizes.formatBytes(bytes), origin, ms, verified ? "verified" : "CORRUPT", via);
        }
    }

    static List<Step> run(Rendezvous rv, VerbsProvider provider, Config config, long bytes) {
        int n = rv.environment().worldSize();
        int rank = rv.environment().rank();
        int right = (rank + 1) % n;
        int left = (rank - 1 + n) % n;
        long timeoutNs = config.get(Knobs.TIMEOUT_NS);
        PeerExchange peers = rv.peers();
        try (DeviceContext ctx = provider.open(provider.devices(config).getFirst(), config)) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(4 * n + 8);
            MemorySegment own = pd.allocate(bytes);
            MemorySegment slots = pd.allocate(bytes * Math.max(1, n - 1));
            Segments.fillPattern(own, rank);
            MemoryRegion ownMr = pd.register(own, EnumSet.of(Access.LOCAL_WRITE));
            MemoryRegion slotMr = pd.register(slots, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
            QueuePair toRight = pd.createQp(QpInitAttr.of(cq, n + 2));
            QueuePair fromLeft = pd.createQp(QpInitAttr.of(cq, n + 2));
            toRight.modifyToInit();
            fromLeft.modifyToInit();
            // Two channel names, so a 2-rank ring (left == right) still pairs the right queue pairs.
            peers.publishConnectInfo("ring-to-right", right, toRight.localInfo());
            peers.publishConnectInfo("ring-to-left", left, fromLeft.localInfo());
            peers.publishRemoteBuffer("ring-slots", left, slotMr.remote());
            toRight.modifyToRtr(peers.fetchConnectInfo("ring-to-left", right));
            fromLeft.modifyToRtr(peers.fetchConnectInfo("ring-to-right", left));
            RemoteBuffer rightSlots = peers.fetchRemoteBuffer("ring-slots", right);
            for (int s = 0; s < n - 1; s++) {
                if (!fromLeft.postRecv(new RecvWr(s, Sge.EMPTY))) throw new VerbsException("receive queue full");
            }
            rv.barrier();
            toRight.modifyToRts();
            fromLeft.modifyToRts();
            rv.barrier();
            Log.info(Subsys.INIT, "ring: sending over %s", toRight.describe());
            List<Step> steps = new ArrayList<>();
            WorkCompletion[] wcs = WorkCompletion.array(8);
            // The left neighbour may run a step ahead: once our ACK completes its step-s write it
            // can post step s+1 while our own step-s write still waits for the right neighbour's
            // ACK. So arrivals are counted in order (RC delivers them so), not matched to the step.
            int arrived = 0;
            for (int s = 0; s < n - 1; s++) {
                long t0 = System.nanoTime();
                MemoryRegion srcMr = s == 0 ? ownMr : slotMr;
                long srcOff = s == 0 ? 0 : (long) (s - 1) * bytes;
                SendWr wr = SendWr.writeWithImm(s, srcMr.sge(srcOff, bytes), rightSlots.at((long) s * bytes),
                        rightSlots.rkey(), s);
                if (!toRight.postSend(wr)) throw new VerbsException("send queue full at step " + s);
                boolean sent = false;
                while (!sent || arrived <= s) {
                    int k = cq.await(wcs, timeoutNs);
                    if (k == 0) {
                        throw new VerbsException(String.format("rank %d step %d: nothing completed within %s (sent=%b received=%b)",
                                rank, s, (timeoutNs / 1_000_000) + " ms", sent, arrived > s));
                    }
                    for (int i = 0; i < k; i++) {
                        WorkCompletion wc = wcs[i];
                        if (!wc.ok()) throw new VerbsException("rank " + rank + " step " + s + ": " + wc);
                        if (wc.opcode() == WcOpcode.RECV_RDMA_WITH_IMM) {
                            if (wc.imm() != arrived) {
                                throw new VerbsException("rank " + rank + " expected the write of step " + arrived + " next, got imm " + wc.imm());
                            }
                            arrived++;
                        } else {
                            sent = true;
                        }
                    }
                }
                double ms = (System.nanoTime() - t0) / 1e6;
                int origin = ((rank - s - 1) % n + n) % n;
                long bad = Segments.firstPatternMismatch(slots.asSlice((long) s * bytes, bytes), origin);
                steps.add(new Step(s, left, rank, origin, bytes, ms, bad < 0, fromLeft.describe()));
                if (bad >= 0) {
                    throw new VerbsException("rank " + rank + " step " + s + ": byte " + bad + " of rank " + origin
                            + "'s buffer is wrong");
                }
            }
            rv.barrier();
            return steps;
        }
    }

    static byte[] encode(List<Step> steps) {
        StringBuilder sb = new StringBuilder();
        for (Step s : steps) sb.append(s.line()).append('\n');
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
