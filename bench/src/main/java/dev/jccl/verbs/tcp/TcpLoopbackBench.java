package dev.jccl.verbs.tcp;

import dev.jccl.testkit.PairBed;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WorkCompletion;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;

/**
 * Not a test: a quick loopback measurement to run by hand. 8-byte WRITE_WITH_IMM ping-pong latency,
 * large-WRITE bandwidth over 1 and 4 sockets, and a plain socket stream between two threads as the
 * ceiling this machine's loopback allows. Run it with {@code bench/run-main.sh dev.jccl.verbs.tcp.TcpLoopbackBench}.
 */
public final class TcpLoopbackBench {
    private TcpLoopbackBench() {}

    public static void main(String[] args) throws Exception {
        pingPong(20_000);
        plainPingPong(20_000);
        for (int lanes : new int[] {1, 4}) writeBandwidth(lanes, 64 << 20, 48);
        plainSocket(64 << 20, 48);
    }

    /** Loopback, one job token, and {@code lanes} sockets per queue pair. */
    private static Map<String, String> knobs(int lanes) {
        return Map.of("JCCL_AUTH_TOKEN", "tcp-loopback-bench", "JCCL_QPS_PER_CONNECTION", Integer.toString(lanes),
                "JCCL_TIMEOUT", "20s", "JCCL_RNR_TIMEOUT", "20ms");
    }

    private static MemoryRegion region(ProtectionDomain pd, long bytes) {
        MemorySegment seg = pd.allocate(bytes);
        seg.fill((byte) 0);
        return pd.register(seg, EnumSet.allOf(Access.class));
    }

    static void pingPong(int iterations) {
        try (PairBed bed = PairBed.connected("tcp", knobs(1), 64)) {
            MemoryRegion ra = region(bed.pdA, 8), rb = region(bed.pdB, 8);
            WorkCompletion[] wc = WorkCompletion.array(4);
            long start = 0;
            for (int i = 0; i < iterations * 2; i++) {
                if (i == iterations) start = System.nanoTime(); // first half warms up
                bed.qpB.postRecv(new RecvWr(i, Sge.EMPTY));
                bed.qpA.postRecv(new RecvWr(i, Sge.EMPTY));
                bed.qpA.postSend(SendWr.writeWithImm(i, ra.sge(0, 8), rb.address(), rb.rkey(), i).unsignaled());
                awaitRecv(bed.cqB, bed.qpB, wc);
                bed.qpB.postSend(SendWr.writeWithImm(i, rb.sge(0, 8), ra.address(), ra.rkey(), i).unsignaled());
                awaitRecv(bed.cqA, bed.qpA, wc);
            }
            double rttUs = (System.nanoTime() - start) / 1e3 / iterations;
            System.out.printf(Locale.ROOT, "8 B WRITE_WITH_IMM ping-pong: %.1f us round trip, %.1f us one way%n", rttUs, rttUs / 2);
        }
    }

    /** Waits for the receive completion, skipping the sender's unsignaled requests (which report nothing). */
    private static void awaitRecv(CompletionQueue cq, QueuePair qp, WorkCompletion[] wc) {
        if (cq.await(wc, 5_000_000_000L) == 0) {
            throw new IllegalStateException("ping-pong stalled on " + qp.describe());
        }
        if (!wc[0].ok()) throw new IllegalStateException(wc[0].toString());
    }

    /** Two threads echoing 8 bytes over blocking sockets: what loopback itself costs per round trip. */
    static void plainPingPong(int iterations) throws IOException, InterruptedException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread echo = Thread.ofPlatform().start(() -> {
                try (SocketChannel ch = server.accept()) {
                    Connector.configure(ch, 1_000_000_000L);
                    ByteBuffer b = ByteBuffer.allocateDirect(8);
                    for (int i = 0; i < iterations * 2; i++) {
                        b.clear();
                        while (b.hasRemaining()) if (ch.read(b) < 0) return;
                        b.flip();
                        while (b.hasRemaining()) ch.write(b);
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (SocketChannel ch = SocketChannel.open()) {
                Connector.configure(ch, 1_000_000_000L);
                ch.connect(server.getLocalAddress());
                ByteBuffer b = ByteBuffer.allocateDirect(8);
                long start = 0;
                for (int i = 0; i < iterations * 2; i++) {
                    if (i == iterations) start = System.nanoTime();
                    b.clear();
                    while (b.hasRemaining()) ch.write(b);
                    b.clear();
                    while (b.hasRemaining()) ch.read(b);
                }
                double rttUs = (System.nanoTime() - start) / 1e3 / iterations;
                System.out.printf(Locale.ROOT, "plain socket 8 B echo: %.1f us round trip%n", rttUs);
            }
            echo.join();
        }
    }

    static void writeBandwidth(int lanes, int bytes, int count) {
        try (PairBed bed = PairBed.connected("tcp", knobs(lanes), 8)) {
            MemoryRegion src = region(bed.pdA, bytes), dst = region(bed.pdB, bytes);
            for (int round = 0; round < 2; round++) {
                long start = System.nanoTime();
                int posted = 0, done = 0;
                while (done < count) {
                    while (posted < count && posted - done < 4) {
                        bed.qpA.postSend(SendWr.write(posted, src.sge(0, bytes), dst.address(), dst.rkey()));
                        posted++;
                    }
                    WorkCompletion c = PairBed.awaitOne(bed.cqA);
                    if (!c.ok()) throw new IllegalStateException(c.toString());
                    done++;
                }
                double gbps = (double) bytes * count / (System.nanoTime() - start);
                if (round == 1) System.out.printf(Locale.ROOT, "RDMA_WRITE %d MiB x %d over %d socket(s): %.2f GB/s%n",
                        bytes >> 20, count, lanes, gbps);
            }
        }
    }

    static void plainSocket(int bytes, int count) throws IOException, InterruptedException {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread reader = Thread.ofPlatform().start(() -> {
                try (SocketChannel in = server.accept()) {
                    Connector.configure(in, 1_000_000_000L);
                    ByteBuffer buf = ByteBuffer.allocateDirect(bytes);
                    long left = (long) bytes * count * 2;
                    while (left > 0) {
                        buf.clear();
                        int n = in.read(buf);
                        if (n < 0) return;
                        left -= n;
                    }
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            try (SocketChannel out = SocketChannel.open()) {
                Connector.configure(out, 1_000_000_000L);
                out.connect(server.getLocalAddress());
                ByteBuffer buf = ByteBuffer.allocateDirect(bytes);
                for (int round = 0; round < 2; round++) {
                    long start = System.nanoTime();
                    for (int i = 0; i < count; i++) {
                        buf.clear();
                        while (buf.hasRemaining()) out.write(buf);
                    }
                    double gbps = (double) bytes * count / (System.nanoTime() - start);
                    if (round == 1) System.out.printf(Locale.ROOT, "plain socket stream, one thread each side: %.2f GB/s%n", gbps);
                }
            }
            reader.join();
        }
    }
}
