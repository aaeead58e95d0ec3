package dev.jccl.verbs.shm;

import dev.jccl.config.Config;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.jccl.verbs.shm.ShmTestBed.awaitAll;
import static dev.jccl.verbs.shm.ShmTestBed.awaitOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A peer that goes away, by closing its context or by being killed, flushes our outstanding work. */
class ShmPeerLossTest {
    private static final long FIVE_SECONDS_NS = 5_000_000_000L;

    @Test
    @Timeout(30)
    void closedPeerContextFlushesOurReceives() throws Exception {
        try (ShmTestBed bed = ShmTestBed.connected(Map.of(), 4)) {
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
        Path dir = Files.createTempDirectory(Path.of(ShmTestBed.shmRoot()), "jccl-test-");
        Process child = null;
        try (DeviceContext ctx = ShmTestBed.open(Config.of(Map.of("JCCL_SHM_DIR", dir.toString())))) {
            long bytes = 1_000_003;
            ProtectionDomain pd = ctx.allocPd();
            CompletionQueue cq = ctx.createCq(16);
            QueuePair qp = pd.createQp(QpInitAttr.of(cq, 8));
            qp.modifyToInit();
            MemoryRegion target = ShmTestBed.shared(pd, bytes, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            for (int i = 0; i < 4; i++) assertTrue(qp.postRecv(new RecvWr(100 + i, Sge.EMPTY)));

            child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    ShmChildRank.class.getName(), dir.toString(), Long.toString(bytes))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            BufferedReader fromChild = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            PrintStream toChild = new PrintStream(child.getOutputStream(), true, StandardCharsets.UTF_8);
            HexFormat hex = HexFormat.of();

            String info = fromChild.readLine();
            assertTrue(info != null && info.startsWith("INFO "), "child said: " + info);
            qp.modifyToRtr(ConnectInfo.decode(hex.parseHex(info.substring(5))));
            qp.modifyToRts();
            toChild.println("PEER " + hex.formatHex(qp.localInfo().encode()) + " " + hex.formatHex(target.remote().encode()));

            WorkCompletion rc = awaitOne(cq);
            assertEquals(WcStatus.SUCCESS, rc.status(), rc::toString);
            assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, rc.opcode());
            assertEquals(42, rc.imm());
            assertEquals(-1, Segments.firstPatternMismatch(target.segment(), ShmChildRank.SEED), "payload from the child");
            assertEquals("WROTE SUCCESS", fromChild.readLine());
            assertTrue(qp.describe().contains("pid " + child.pid()), qp.describe());

            long killedAt = System.nanoTime();
            child.destroyForcibly();
            List<WorkCompletion> flushed = awaitAll(cq, 3, FIVE_SECONDS_NS);
            long noticedNs = System.nanoTime() - killedAt;
            assertEquals(3, flushed.size(), "receives flushed within 5 s of the kill: " + flushed);
            for (WorkCompletion wc : flushed) {
                assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc::toString);
                assertTrue(wc.detail().contains("pid " + child.pid()), wc::detail);
            }
            assertTrue(noticedNs < FIVE_SECONDS_NS, "noticed after " + noticedNs / 1_000_000 + " ms");
            child.waitFor();
        } finally {
            if (child != null) child.destroyForcibly().waitFor();
            try (Stream<Path> left = Files.list(dir)) {
                List<Path> files = left.toList();
                assertTrue(files.isEmpty(), "files left behind: " + files);
            } finally {
                ShmTestBed.deleteTree(dir);
            }
        }
    }
}
