package dev.jccl.verbs.shm;

import dev.jccl.config.Config;
import dev.jccl.testkit.PairBed;
import dev.jccl.testkit.PrivateShmDir;
import dev.jccl.testkit.jvm.ChildJvm;
import dev.jccl.testkit.jvm.JavaCommand;
import dev.jccl.util.Segments;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HexFormat;
import java.util.List;
import java.util.Map;

import static dev.jccl.testkit.PairBed.awaitAll;
import static dev.jccl.testkit.PairBed.awaitOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A peer that goes away, by closing its context or by being killed, flushes our outstanding work. */
@Tag("multiprocess")
class ShmPeerLossTest {
    private static final long FIVE_SECONDS_NS = 5_000_000_000L;
    /** The child JVM's start-up on a loaded machine included. */
    private static final long CHILD_LINE_NS = 30_000_000_000L;

    @Test
    @Timeout(30)
    void closedPeerContextFlushesOurReceives() throws Exception {
        try (PairBed bed = PairBed.connected("shm", Map.of(), 4)) {
            for (int i = 0; i < 3; i++) assertTrue(bed.qpA.postRecv(new RecvWr(i, Sge.EMPTY)));
            bed.ctxB.close();
            List<WorkCompletion> wcs = awaitAll(bed.cqA, 3, FIVE_SECONDS_NS);
            assertEquals(3, wcs.size(), "flushed receives: " + wcs);
            for (WorkCompletion wc : wcs) {
                assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc::toString);
                assertTrue(wc.detail().contains("pid " + ProcessHandle.current().pid()), wc::detail);
            }
        }
    }

    @Test
    @Timeout(90)
    void killedChildProcessFlushesOurReceivesWithinFiveSeconds() throws Exception {
        PrivateShmDir dir = PrivateShmDir.create("jccl-test-");
        ChildJvm child = null;
        try (DeviceContext ctx = PairBed.openContext("shm", Config.of(Map.of("JCCL_SHM_DIR", dir.toString())))) {
            long bytes = 1_000_003;
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16);
            QueuePair qp = pd.createQp(QpInitAttr.of(cq, 8));
            qp.modifyToInit();
            MemoryRegion target = PairBed.shared(pd, bytes, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            for (int i = 0; i < 4; i++) assertTrue(qp.postRecv(new RecvWr(100 + i, Sge.EMPTY)));

            child = ChildJvm.start(JavaCommand.main(ShmChildRank.class).args(dir.toString(), Long.toString(bytes)));
            HexFormat hex = HexFormat.of();

            String info = child.readLine(CHILD_LINE_NS);
            assertTrue(info != null && info.startsWith("INFO "), "child said: " + info);
            qp.modifyToRtr(ConnectInfo.decode(hex.parseHex(info.substring(5))));
            qp.modifyToRts();
            child.writeLine("PEER " + hex.formatHex(qp.localInfo().encode()) + " " + hex.formatHex(target.remote().encode()));

            WorkCompletion rc = awaitOne(cq);
            assertEquals(WcStatus.SUCCESS, rc.status(), rc::toString);
            assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, rc.opcode());
            assertEquals(42, rc.imm());
            assertEquals(-1, Segments.firstPatternMismatch(target.segment(), ShmChildRank.SEED), "payload from the child");
            assertEquals("WROTE SUCCESS", child.readLine(CHILD_LINE_NS));
            assertTrue(qp.describe().contains("pid " + child.pid()), qp.describe());

            long killedAt = System.nanoTime();
            child.process().destroyForcibly();
            List<WorkCompletion> flushed = awaitAll(cq, 3, FIVE_SECONDS_NS);
            long noticedNs = System.nanoTime() - killedAt;
            assertEquals(3, flushed.size(), "receives flushed within 5 s of the kill: " + flushed);
            for (WorkCompletion wc : flushed) {
                assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc::toString);
                assertTrue(wc.detail().contains("pid " + child.pid()), wc::detail);
            }
            assertTrue(noticedNs < FIVE_SECONDS_NS, "noticed after " + noticedNs / 1_000_000 + " ms");
            child.kill();
        } finally {
            if (child != null) child.close();
            try {
                assertTrue(dir.files().isEmpty(), "files left behind: " + dir.files());
            } finally {
                dir.close();
            }
        }
    }
}
