package dev.jccl.verbs.shm;

import dev.jccl.config.Config;
import dev.jccl.testkit.PairBed;
import dev.jccl.testkit.PrivateShmDir;
import dev.jccl.testkit.jvm.ChildJvm;
import dev.jccl.testkit.jvm.JavaCommand;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.RemoteBuffer;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WorkCompletion;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;

/**
 * Manual benchmark, not a test: an 8-byte WRITE_WITH_IMM ping-pong between this JVM and a child
 * JVM, then 64 MiB RDMA writes compared with a local MemorySegment.copy. Run it with
 * {@code bench/run-main.sh dev.jccl.verbs.shm.ShmPingPongBench [iterations]}.
 */
public final class ShmPingPongBench {
    private static final long BIG = 64L << 20;
    private static final int DEPTH = 64;
    /** Bound on each line from the child, its start-up included. */
    private static final long LINE_WAIT_NS = 60_000_000_000L;

    private ShmPingPongBench() {}

    /** One line each way between the two sides: the child's stdio, or the parent's view of the child. */
    private interface Lines {
        String read() throws Exception;

        void write(String line);
    }

    public static void main(String[] args) throws Exception {
        boolean child = args.length > 0 && args[0].equals("child");
        PrivateShmDir ownDir = child ? null : PrivateShmDir.create("jccl-bench-");
        Path dir = child ? Path.of(args[1]) : ownDir.path();
        int iterations = child ? Integer.parseInt(args[2]) : args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        ChildJvm peer = null;
        Lines lines;
        if (child) {
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            lines = new Lines() {
                public String read() throws Exception { return in.readLine(); }
                public void write(String line) { System.out.println(line); System.out.flush(); }
            };
        } else {
            ChildJvm started = ChildJvm.start(JavaCommand.main(ShmPingPongBench.class)
                    .args("child", dir.toString(), Integer.toString(iterations)));
            peer = started;
            lines = new Lines() {
                public String read() throws Exception { return started.readLine(LINE_WAIT_NS); }
                public void write(String line) { started.writeLine(line); }
            };
        }
        HexFormat hex = HexFormat.of();
        try (DeviceContext ctx = PairBed.openContext("shm", Config.of(Map.of("JCCL_SHM_DIR", dir.toString())))) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(4 * DEPTH);
            QueuePair qp = pd.createQp(QpInitAttr.of(cq, DEPTH));
            qp.modifyToInit();
            MemoryRegion small = PairBed.shared(pd, 8, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion big = PairBed.shared(pd, BIG, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            for (int i = 0; i < DEPTH; i++) qp.postRecv(new RecvWr(i, Sge.EMPTY));
            lines.write(hex.formatHex(qp.localInfo().encode()) + " " + hex.formatHex(small.remote().encode())
                    + " " + hex.formatHex(big.remote().encode()));
            String[] peerLine = lines.read().split(" ");
            qp.modifyToRtr(ConnectInfo.decode(hex.parseHex(peerLine[0])));
            qp.modifyToRts();
            RemoteBuffer peerSmall = RemoteBuffer.decode(hex.parseHex(peerLine[1]));
            RemoteBuffer peerBig = RemoteBuffer.decode(hex.parseHex(peerLine[2]));
            SendWr ping = SendWr.writeWithImm(1, small.sge(0, 8), peerSmall.address(), peerSmall.rkey(), 7).unsignaled();
            WorkCompletion[] wc = WorkCompletion.array(8);
            RecvWr repost = new RecvWr(0, Sge.EMPTY);
            long[] roundTripNs = new long[iterations];
            for (int round = 0; round < 3; round++) {
                long start = System.nanoTime();
                for (int i = 0; i < iterations; i++) {
                    long t = System.nanoTime();
                    if (!child) qp.postSend(ping);
                    while (cq.poll(wc) == 0) Thread.onSpinWait();
                    qp.postRecv(repost);
                    if (child) qp.postSend(ping);
                    roundTripNs[i] = System.nanoTime() - t;
                }
                long ns = System.nanoTime() - start;
                java.util.Arrays.sort(roundTripNs);
                if (!child) System.out.printf("ping-pong 8 B WRITE_WITH_IMM, one-way: mean %.2f us, p10 %.2f us, "
                                + "median %.2f us, p90 %.2f us (%d round trips)%n", ns / 1e3 / iterations / 2,
                        roundTripNs[iterations / 10] / 2e3, roundTripNs[iterations / 2] / 2e3,
                        roundTripNs[iterations * 9 / 10] / 2e3, iterations);
            }
            if (!child) {
                SendWr write = SendWr.write(2, big.sge(0, BIG), peerBig.address(), peerBig.rkey());
                for (int round = 0; round < 5; round++) {
                    long start = System.nanoTime();
                    qp.postSend(write);
                    while (cq.poll(wc) == 0) Thread.onSpinWait();
                    long ns = System.nanoTime() - start;
                    System.out.printf("RDMA_WRITE 64 MiB: %.2f GB/s (%s)%n", BIG / (double) ns, wc[0]);
                }
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment a = arena.allocate(BIG);
                    MemorySegment b = arena.allocate(BIG);
                    for (int round = 0; round < 5; round++) {
                        long start = System.nanoTime();
                        MemorySegment.copy(a, 0, b, 0, BIG);
                        System.out.printf("memcpy 64 MiB (private): %.2f GB/s%n", BIG / (double) (System.nanoTime() - start));
                    }
                }
                lines.write("DONE");
                peer.awaitExit(LINE_WAIT_NS);
            } else {
                lines.read();
            }
        } finally {
            if (peer != null) peer.close();
            if (ownDir != null) ownDir.close();
        }
    }
}
