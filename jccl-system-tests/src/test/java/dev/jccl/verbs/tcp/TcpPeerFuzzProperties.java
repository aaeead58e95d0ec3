package dev.jccl.verbs.tcp;

import dev.jccl.fuzz.FuzzCount;
import dev.jccl.fuzz.Guarded;
import dev.jccl.fuzz.Mutator;
import dev.jccl.fuzz.Tries;
import dev.jccl.util.AuthHandshake;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer that proved the job token and then sends broken frames to a real tcp queue pair (its
 * listener, receiver thread and all): the queue pair goes to ERR with every receive completed, no
 * guard byte around its regions or receive buffers changes, frames sent after that are dropped, and
 * the same context, and a pair of good queue pairs beside it, keep working.
 */
@Tag("slow")
class TcpPeerFuzzProperties {
    private static final String TARGET = "tcp-provider (authenticated peer, live queue pair)";
    private static final String AFTER_CLOSE = "tcp-provider (frames after ERR)";
    private static final int FAKE_QPN = 99;
    private static final int FAKE_PSN = 1234;
    private static final int TRIES = 250;
    private static final EnumSet<Access> ALL = EnumSet.allOf(Access.class);
    private static TcpPeer victim;
    private static TcpPeer goodA;
    private static TcpPeer goodB;
    private static ServerSocketChannel fakeListener;

    @BeforeAll
    static void open() throws IOException {
        // Split sockets: the victim opens its own lanes to the fake listener and reads only the raw ones played here.
        victim = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_SHARED_SOCKETS", "0"), 8);
        goodA = new TcpPeer(TcpPeer.config(1), 4);
        goodB = new TcpPeer(TcpPeer.config(1), 4);
        TcpPeer.connect(goodA, goodB);
        fakeListener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread.ofPlatform().daemon().name("fuzz-fake-listener").start(TcpPeerFuzzProperties::playTheFakePeersListener);
    }

    @AfterAll
    static void close() throws IOException {
        fakeListener.close();
        goodA.close();
        goodB.close();
        victim.close();
        FuzzCount.report(TARGET);
        FuzzCount.report(AFTER_CLOSE);
    }

    @Test
    void brokenFramesErrTheQueuePairAndNothingElse() {
        Tries.run(TRIES, this::brokenFramesErrTheQueuePairAndNothingElse);
    }

    /** One try of {@link #brokenFramesErrTheQueuePairAndNothingElse()}. */
    private void brokenFramesErrTheQueuePairAndNothingElse(long seed) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        List<Guarded> guards = new ArrayList<>();
        List<MemoryRegion> registered = new ArrayList<>();
        QueuePair qp = victim.end.createQp(8, 8);
        try {
            qp.modifyToInit();
            List<MemoryRegion> regions = new ArrayList<>();
            for (int i = 0; i < 3; i++) regions.add(victim.pd.register(guarded(guards, 64 + r.nextInt(16 * 1024)), ALL));
            registered.addAll(regions);
            int receives = 1 + r.nextInt(4); // at least one, whose completion says why the queue pair failed
            for (int i = 0; i < receives; i++) {
                MemoryRegion buf = victim.pd.register(guarded(guards, 1 + r.nextInt(8 * 1024)), ALL);
                registered.add(buf);
                assertTrue(qp.postRecv(new RecvWr(100 + i, buf.sge(0, buf.length()))));
            }
            qp.modifyToRtr(new ConnectInfo("tcp", FAKE_QPN, 0, "127.0.0.1:" + fakeListener.socket().getLocalPort(), FAKE_PSN));
            qp.modifyToRts();
            List<byte[]> frames = TcpFrames.plausible(r, regions, FAKE_PSN, qp.localInfo().psn(), 3000);
            byte[] wire = TcpFrames.corrupt(new Mutator(r, FrameDescriptor.ORDER), frames);
            List<byte[]> late = TcpFrames.plausible(r, regions, FAKE_PSN, qp.localInfo().psn(), 3000);
            try (Socket raw = authenticatedLane(qp)) {
                raw.getOutputStream().write(wire);
                FuzzCount.record(TARGET, true);
                for (int i = 1; i < frames.size(); i++) FuzzCount.record(TARGET, false);
                boolean inErr = awaitErr(qp, 50);
                try {
                    raw.getOutputStream().write(TcpFrames.concat(late)); // after ERR the peer goes on sending
                    raw.shutdownOutput(); // a stream cut short (or taken as plausible) ends here
                } catch (IOException reset) {
                    // the victim shut the socket: as good as ignored
                }
                late.forEach(f -> FuzzCount.record(inErr ? AFTER_CLOSE : TARGET, inErr));
                assertTrue(awaitErr(qp, 10_000), "qp " + qp.qpn() + " is " + qp.state() + " after the peer's stream ended");
            }
            assertEquals(receives, flushedReceives(receives), "every posted receive completes once");
            assertTrue(guards.stream().allMatch(Guarded::intact), "a write landed outside a registered region");
        } finally {
            qp.close();
            registered.forEach(victim.pd::deregister);
        }
        aGoodWriteStillWorks(r);
    }

    private static java.lang.foreign.MemorySegment guarded(List<Guarded> guards, long bytes) {
        Guarded g = new Guarded(victim.pd.allocate(Guarded.wholeBytes(bytes)));
        guards.add(g);
        return g.inner();
    }

    private static Socket authenticatedLane(QueuePair qp) throws IOException {
        Socket raw = new Socket(InetAddress.getLoopbackAddress(), TcpConnection.parseGid(qp.localInfo().gid()).getPort());
        raw.setSoTimeout(10_000);
        AuthHandshake.client(raw.getInputStream(), raw.getOutputStream(), TcpPeer.TOKEN, Connector.PURPOSE);
        HelloDescriptor.write(new DataOutputStream(raw.getOutputStream()),
                new HelloDescriptor.Hello(qp.qpn(), FAKE_QPN, 0, 1, 8, FAKE_PSN, HelloDescriptor.SPLIT));
        assertEquals("", new DataInputStream(raw.getInputStream()).readUTF());
        return raw;
    }

    private static boolean awaitErr(QueuePair qp, long ms) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
        while (qp.state() != QpState.ERR && System.nanoTime() < deadline) Thread.sleep(1);
        return qp.state() == QpState.ERR;
    }

    private static int flushedReceives(int expected) {
        WorkCompletion[] wc = WorkCompletion.array(8);
        int got = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (got < expected && System.nanoTime() < deadline) {
            int n = victim.cq.await(wc, deadline - System.nanoTime());
            for (int i = 0; i < n; i++) {
                assertTrue(wc[i].status() == WcStatus.SUCCESS || !wc[i].detail().isBlank(), "an error without a reason: " + wc[i]);
                assertTrue(!wc[i].detail().contains("Exception"), "an internal error, not a refusal: " + wc[i]);
                got++;
            }
        }
        return got;
    }

    private static void aGoodWriteStillWorks(SplittableRandom r) {
        MemoryRegion src = goodA.region(256);
        MemoryRegion dst = goodB.region(256);
        TcpPeer.fill(src.segment(), r.nextLong());
        assertTrue(goodA.qp.postSend(SendWr.write(1, src.sge(0, 256), dst.address(), dst.rkey())));
        WorkCompletion wc = goodA.awaitOne();
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        assertEquals(-1, src.segment().mismatch(dst.segment()), "the good pair's write landed intact");
        goodA.pd.deregister(src);
        goodB.pd.deregister(dst);
    }

    /** Accepts each victim queue pair's outbound lane, as the fake peer's listener, and holds it until the victim shuts it. */
    private static void playTheFakePeersListener() {
        while (fakeListener.isOpen()) {
            SocketChannel ch;
            try {
                ch = fakeListener.accept();
            } catch (IOException closed) {
                return;
            }
            Thread.ofVirtual().start(() -> {
                try (ch) {
                    Socket s = ch.socket();
                    AuthHandshake.server(s.getInputStream(), s.getOutputStream(), TcpPeer.TOKEN, Connector.PURPOSE);
                    HelloDescriptor.read(new DataInputStream(s.getInputStream()));
                    new DataOutputStream(s.getOutputStream()).writeUTF("");
                    while (s.getInputStream().read() >= 0) {
                        // ACKs, NAKs and READ_RESPONSEs of the victim: not what is under test
                    }
                } catch (IOException ignored) {
                    // the victim closed its lane
                }
            });
        }
    }
}
