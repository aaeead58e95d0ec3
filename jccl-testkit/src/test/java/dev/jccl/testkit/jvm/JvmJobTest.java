package dev.jccl.testkit.jvm;

import dev.jccl.bootstrap.TcpStoreClient;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real JVMs as ranks: the launch variables reach each rank, and a child that hangs or dies is reported. */
@Tag("multiprocess")
class JvmJobTest {
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(60);

    @Test
    @Timeout(90)
    void jvmRanksFindTheHostedStoreBesideThreadRanks() throws Exception {
        try (JvmJob job = JvmJob.builder(3).jvmRanks(1, 2)
                .command(rank -> JavaCommand.main(StoreRank.class).fastStart().args("arg-" + rank)).start()) {
            assertEquals("rank 1 of 3", job.rank(1).readLine(WAIT_NS));
            assertEquals("rank 2 of 3", job.rank(2).readLine(WAIT_NS));
            job.awaitSuccess(WAIT_NS);
            try (TcpStoreClient store = job.storeClient(WAIT_NS)) {
                assertEquals("1 arg-1", new String(store.get("rank/1", WAIT_NS), StandardCharsets.UTF_8));
                assertEquals("1 arg-2", new String(store.get("rank/2", WAIT_NS), StandardCharsets.UTF_8));
            }
            assertThrows(IllegalArgumentException.class, () -> job.rank(0), "rank 0 is the test's own");
        }
    }

    @Test
    @Timeout(60)
    void aChildThatSaysNothingFailsTheReadNamingItAndIsKilledOnClose() throws Exception {
        ChildJvm child = ChildJvm.start(JavaCommand.main(Silent.class).fastStart(), Map.of());
        try (child) {
            AssertionError e = assertThrows(AssertionError.class, () -> child.readLine(TimeUnit.MILLISECONDS.toNanos(200)));
            assertTrue(e.getMessage().contains("wrote no line"), e.getMessage());
        }
        assertTrue(child.process().waitFor(10, TimeUnit.SECONDS), "closed child still running");
    }

    @Test
    @Timeout(60)
    void aFailedRankIsNamedWithItsOutput() throws Exception {
        try (JvmJob job = JvmJob.builder(1).command(JavaCommand.main("no.such.Main")).start()) {
            AssertionError e = assertThrows(AssertionError.class, () -> job.awaitSuccess(WAIT_NS));
            assertTrue(e.getMessage().startsWith("rank 0 exited with 1"), e.getMessage());
            assertTrue(e.getMessage().contains("no.such.Main"), e.getMessage());
        }
    }

    /** A main that never writes and never ends on its own. */
    public static final class Silent {
        private Silent() {}

        public static void main(String[] args) throws InterruptedException {
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
        }
    }
}
