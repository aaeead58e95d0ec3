package dev.jccl.verbs.shm;

import dev.jccl.config.Config;
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
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;

/**
 * Manual benchmark, not a test: an 8-byte WRITE_WITH_IMM ping-pong between this JVM and a child
 * JVM, then 64 MiB RDMA writes compared with a local MemorySegment.copy. Run with the test class
 * path: {@code java -cp ... dev.jccl.verbs.shm.ShmPingPongBench [iterations]}.
 */
public final class ShmPingPongBench {
    private static final long BIG = 64L << 20;
    private static final int DEPTH = 64;

    private ShmPingPongBench() {}

    public static void main(String[] args) throws Exception {
        boolean child = args.length > 0 && args[0].equals("child");
        Path dir = child ? Path.of(args[1]) : Files.createTempDirectory(Path.of(ShmTestBed.shmRoot()), "jccl-bench-");
        int iterations = child ? Integer.parseInt(args[2]) : args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        Process peer = null;
        BufferedReader in;
        PrintStream out;
        if (child) {
            in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            out = System.out;
        } else {
            peer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    ShmPingPongBench.class.getName(), "child", dir.toString(), Integer.toString(iterations))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            in = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
            out = new PrintStream(peer.getOutputStream(), true, StandardCharsets.UTF_8);
        }
        HexFormat hex = HexFormat.of();
        try (DeviceContext ctx = ShmTestBed.open(Config.of(Map.of("JCCL_SHM_DIR", dir.toString())))) {
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(4 * DEPTH);
            QueuePair qp = pd.createQp(QpInitAttr.of(cq, DEPTH));
            qp.modifyToInit();
            MemoryRegion small = ShmTestBed.shared(pd, 8, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion big = ShmTestBed.shared(pd, BIG, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            for (int i = 0; i < DEPTH; i++) qp.postRecv(new RecvWr(i, Sge.EMPTY));
            out.println(hex.formatHex(qp.localInfo().encode()) + " " + hex.formatHex(small.remote().encode())
                    + " " + hex.formatHex(big.remote().encode()));
            out.flush();
            String[] peerLine = in.readLine().split(" ");
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
                out.println("DONE");
            } else {
                in.readLine();
            }
        } finally {
            if (peer != null) {
                peer.waitFor();
                ShmTestBed.deleteTree(dir);
            }
        }
    }
}
