package dev.jccl.verbs.tcp;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.EnumSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The peer refuses: bad keys, bounds and rights, no receive, a receive too small. Memory stays untouched. */
@Timeout(30)
@Tag("unit")
class TcpRemoteErrorTest {
    private static final int MIB = 1 << 20;

    @ParameterizedTest(name = "{0} socket(s)")
    @ValueSource(ints = {1, 4})
    void unknownRkeyIsRemAccessErrAndFlushesTheRest(int lanes) {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(lanes), 8); TcpPeer b = new TcpPeer(TcpPeer.config(lanes), 8)) {
            TcpPeer.connect(a, b);
            MemoryRegion src = a.region(MIB);
            TcpPeer.fill(src.segment(), 1);
            MemoryRegion dst = b.region(MIB);
            int badRkey = dst.rkey() ^ 0x5a5a5a5a;
            assertTrue(a.qp.postSend(SendWr.write(1, src.sge(0, MIB), dst.address(), badRkey)));
            assertTrue(a.qp.postSend(SendWr.send(2, src.sge(0, 8))));
            WorkCompletion bad = a.awaitOne();
            assertEquals(WcStatus.REM_ACCESS_ERR, bad.status(), bad.toString());
            assertEquals(1, bad.wrId());
            assertTrue(bad.detail().contains(String.format("rkey 0x%08x", badRkey)), bad.detail());
            WorkCompletion flushed = a.awaitOne();
            assertEquals(WcStatus.WR_FLUSH_ERR, flushed.status(), flushed.toString());
            assertEquals(2, flushed.wrId());
            assertEquals(QpState.ERR, a.qp.state());
            assertTrue(TcpPeer.allZero(dst.segment()), "target memory was written");
            b.awaitState(QpState.ERR); // A shut its sockets, B noticed
        }
    }

    /**
     * Holds the receiver thread that handles the NAK between the queue pair's move to ERR and the
     * completion of the refused request, and posts into that window: the new request must still
     * complete after the refused one (it used to be flushed straight onto the CQ, ahead of it).
     */
    @ParameterizedTest(name = "{0} socket(s)")
    @ValueSource(ints = {1, 4})
    void requestPostedWhileTheNakIsHandledIsFlushedAfterTheRefusedOne(int lanes) throws InterruptedException {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(lanes), 8); TcpPeer b = new TcpPeer(TcpPeer.config(lanes), 8)) {
            TcpPeer.connect(a, b);
            CountDownLatch inErrWindow = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            ((TcpQueuePair) a.qp).onEnteringErr(() -> {
                inErrWindow.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            MemoryRegion src = a.region(MIB);
            TcpPeer.fill(src.segment(), 1);
            MemoryRegion dst = b.region(MIB);
            int badRkey = dst.rkey() ^ 0x5a5a5a5a;
            assertTrue(a.qp.postSend(SendWr.write(1, src.sge(0, MIB), dst.address(), badRkey)));
            try {
                assertTrue(inErrWindow.await(10, TimeUnit.SECONDS), "the NAK never moved qp " + a.qp.qpn() + " to ERR");
                assertEquals(QpState.ERR, a.qp.state());
                assertTrue(a.qp.postSend(SendWr.send(2, src.sge(0, 8))));
                a.assertNoCompletion(20); // nothing may complete before the refused request does
            } finally {
                release.countDown();
            }
            WorkCompletion bad = a.awaitOne();
            assertEquals(WcStatus.REM_ACCESS_ERR, bad.status(), bad.toString());
            assertEquals(1, bad.wrId());
            WorkCompletion flushed = a.awaitOne();
            assertEquals(WcStatus.WR_FLUSH_ERR, flushed.status(), flushed.toString());
            assertEquals(2, flushed.wrId());
            assertTrue(a.qp.postSend(SendWr.send(3, src.sge(0, 8)))); // after the failure: flushed at once
            WorkCompletion late = a.awaitOne();
            assertEquals(WcStatus.WR_FLUSH_ERR, late.status(), late.toString());
            assertEquals(3, late.wrId());
            assertTrue(TcpPeer.allZero(dst.segment()), "target memory was written");
        }
    }

    @ParameterizedTest(name = "{0} socket(s)")
    @ValueSource(ints = {1, 4})
    void writeCrossingTheRegionEndLandsNothing(int lanes) {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(lanes), 8); TcpPeer b = new TcpPeer(TcpPeer.config(lanes), 8)) {
            TcpPeer.connect(a, b);
            MemoryRegion src = a.region(MIB);
            TcpPeer.fill(src.segment(), 2);
            MemoryRegion dst = b.region(MIB);
            // In bounds but for the last 64 bytes: striped over four sockets, no chunk may land.
            assertTrue(a.qp.postSend(SendWr.write(1, src.sge(0, MIB), dst.address() + 64, dst.rkey())));
            WorkCompletion wc = a.awaitOne();
            assertEquals(WcStatus.REM_ACCESS_ERR, wc.status(), wc.toString());
            assertTrue(wc.detail().contains("outside the region"), wc.detail());
            assertTrue(TcpPeer.allZero(dst.segment()), "target memory was written");
        }
    }

    @Test
    void writeWithoutRemoteWriteRightIsRefused() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 8); TcpPeer b = new TcpPeer(TcpPeer.config(1), 8)) {
            TcpPeer.connect(a, b);
            MemoryRegion src = a.region(4096);
            TcpPeer.fill(src.segment(), 3);
            MemoryRegion dst = b.region(4096, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ));
            assertTrue(a.qp.postSend(SendWr.write(1, src.sge(0, 4096), dst.address(), dst.rkey())));
            WorkCompletion wc = a.awaitOne();
            assertEquals(WcStatus.REM_ACCESS_ERR, wc.status(), wc.toString());
            assertTrue(wc.detail().contains("does not grant REMOTE_WRITE"), wc.detail());
            assertTrue(TcpPeer.allZero(dst.segment()));
        }
    }

    @Test
    void readWithBadRkeyLeavesLocalMemoryUntouched() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(4), 8); TcpPeer b = new TcpPeer(TcpPeer.config(4), 8)) {
            TcpPeer.connect(a, b);
            MemoryRegion sink = a.region(MIB);
            MemoryRegion source = b.region(MIB);
            TcpPeer.fill(source.segment(), 4);
            assertTrue(a.qp.postSend(SendWr.read(1, sink.sge(0, MIB), source.address(), source.rkey() + 1)));
            WorkCompletion wc = a.awaitOne();
            assertEquals(WcStatus.REM_ACCESS_ERR, wc.status(), wc.toString());
            assertEquals(WcOpcode.RDMA_READ, wc.opcode());
            assertTrue(TcpPeer.allZero(sink.segment()));
        }
    }

    @ParameterizedTest(name = "write with imm: {0}")
    @ValueSource(booleans = {false, true})
    void noReceivePostedIsRnr(boolean writeWithImm) {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 8); TcpPeer b = new TcpPeer(TcpPeer.config(1), 8)) {
            TcpPeer.connect(a, b);
            MemoryRegion src = a.region(64);
            TcpPeer.fill(src.segment(), 5);
            MemoryRegion dst = b.region(64);
            SendWr wr = writeWithImm ? SendWr.writeWithImm(1, src.sge(0, 64), dst.address(), dst.rkey(), 9)
                    : SendWr.send(1, src.sge(0, 64));
            assertTrue(a.qp.postSend(wr));
            WorkCompletion wc = a.awaitOne();
            assertEquals(WcStatus.RNR_RETRY_EXC, wc.status(), wc.toString());
            assertTrue(wc.detail().contains("no receive was posted"), wc.detail());
            assertEquals(QpState.ERR, a.qp.state());
            assertTrue(TcpPeer.allZero(dst.segment()));
        }
    }

    @Test
    void sendLargerThanTheReceiveIsLocLenAtTheReceiverAndAnErrorAtTheSender() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 8); TcpPeer b = new TcpPeer(TcpPeer.config(1), 8)) {
            TcpPeer.connect(a, b);
            MemoryRegion src = a.region(100);
            TcpPeer.fill(src.segment(), 6);
            MemoryRegion dst = b.region(100);
            assertTrue(b.qp.postRecv(new RecvWr(10, dst.sge(0, 10))));
            assertTrue(b.qp.postRecv(new RecvWr(11, dst.sge(10, 90))));
            assertTrue(a.qp.postSend(SendWr.send(1, src.sge(0, 100))));
            WorkCompletion atReceiver = b.awaitOne();
            assertEquals(WcStatus.LOC_LEN_ERR, atReceiver.status(), atReceiver.toString());
            assertEquals(10, atReceiver.wrId());
            WorkCompletion next = b.awaitOne();
            assertEquals(WcStatus.WR_FLUSH_ERR, next.status(), next.toString());
            assertEquals(11, next.wrId());
            WorkCompletion atSender = a.awaitOne();
            assertEquals(WcStatus.REM_INV_REQ_ERR, atSender.status(), atSender.toString());
            assertTrue(atSender.detail().contains("does not fit"), atSender.detail());
            assertEquals(QpState.ERR, b.qp.state());
            assertTrue(TcpPeer.allZero(dst.segment()));
        }
    }

    @Test
    void receivesCompleteInOrderWhateverSocketTheirChunksTook() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(4), 64); TcpPeer b = new TcpPeer(TcpPeer.config(4), 64)) {
            TcpPeer.connect(a, b);
            int n = 40;
            long size = 300_000; // above the striping threshold: each message spreads over all sockets
            MemoryRegion src = a.region(size * n);
            TcpPeer.fill(src.segment(), 7);
            MemoryRegion dst = b.region(size * n);
            for (int i = 0; i < n; i++) assertTrue(b.qp.postRecv(new RecvWr(100 + i, dst.sge(i * size, size))));
            for (int i = 0; i < n; i++) {
                SendWr wr = i % 2 == 0 ? SendWr.send(i, src.sge(i * size, size))
                        : SendWr.writeWithImm(i, src.sge(i * size, size), dst.address() + i * size, dst.rkey(), i);
                assertTrue(a.qp.postSend(wr.signaled() && i % 3 == 0 ? wr : wr.unsignaled()));
            }
            for (int i = 0; i < n; i++) {
                WorkCompletion wc = b.awaitOne();
                assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
                assertEquals(100 + i, wc.wrId(), "receive completion order");
                if (i % 2 == 1) assertEquals(i, wc.imm());
            }
            for (int i = 0; i < n; i += 3) assertEquals(i, a.awaitOne().wrId(), "send completion order");
            a.assertNoCompletion(20); // unsignaled requests report nothing
            assertEquals(-1, src.segment().mismatch(dst.segment()));
        }
    }
}
