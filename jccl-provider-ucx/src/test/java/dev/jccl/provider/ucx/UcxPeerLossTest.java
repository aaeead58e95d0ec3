package dev.jccl.provider.ucx;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.Jccl;
import dev.jccl.PeerLostException;
import dev.jccl.ReduceOp;
import dev.jccl.bootstrap.TcpStoreClient;
import dev.jccl.bootstrap.TcpStoreServer;
import dev.jccl.util.AuthHandshake;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Rank 2 runs in a child JVM and is killed with SIGKILL while ranks 0 and 1 (threads here) wait for
 * it in an allReduce over UCX. Each survivor must fail with a PeerLostException naming rank 2 within
 * 5 s of the kill, far inside JCCL_TIMEOUT (30 s): the loss is noticed, not waited out.
 */
@Tag("multiprocess")
class UcxPeerLossTest {
    @Test
    @Timeout(120)
    void aKilledRankIsNamedByEverySurvivorWithinFiveSeconds() throws Exception {
        UcxTests.assumeUcpLoads();
        String token = AuthHandshake.newToken();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        Process child = null;
        try (TcpStoreServer server = TcpStoreServer.startLoopback(0, token, 10_000_000_000L)) {
            child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "--enable-native-access=ALL-UNNAMED", "--add-modules", "jdk.incubator.vector",
                    "-cp", System.getProperty("java.class.path"), UcxChildRank.class.getName(),
                    Integer.toString(server.port()), token, "2", "3")
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            CountDownLatch ready = new CountDownLatch(1);
            List<Future<PeerLostException>> survivors = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int rank = r;
                survivors.add(pool.submit(() -> survive(server.port(), token, rank, ready)));
            }
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("READY", out.readLine());
            ready.countDown();
            Thread.sleep(300); // the survivors are blocked in the second allReduce
            long killedAt = System.nanoTime();
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            for (int r = 0; r < 2; r++) {
                PeerLostException e = survivors.get(r).get(60, TimeUnit.SECONDS);
                long ms = (System.nanoTime() - killedAt) / 1_000_000;
                assertNotNull(e, "rank " + r + " completed although rank 2 was killed");
                assertEquals(2, e.lostRank(), e.getMessage());
                System.out.println("ucx: rank " + r + " failed " + ms + " ms after the kill: " + e.getMessage());
                if (ms > 5_000) throw new AssertionError("rank " + r + " noticed the kill only after " + ms + " ms");
            }
        } finally {
            if (child != null) child.destroyForcibly();
            pool.shutdownNow();
        }
    }

    private static PeerLostException survive(int port, String token, int rank, CountDownLatch ready) throws Exception {
        try (Arena arena = Arena.ofShared();
             TcpStoreClient store = TcpStoreClient.connect("127.0.0.1", port, token, 30_000_000_000L);
             Communicator comm = Jccl.init(CommOptions.builder().store(store).rank(rank).size(3).ignoreEnvironment()
                     .transports("ucx").knob("JCCL_TIMEOUT", "30s").knob("JCCL_AUTH_TOKEN", token).build())) {
            comm.barrier().await();
            MemorySegment buf = arena.allocate(4L << 20, 64);
            comm.allReduce(buf, 1 << 20, DataType.FLOAT32, ReduceOp.SUM).await();
            ready.await(30, TimeUnit.SECONDS);
            try {
                comm.allReduce(buf, 1 << 20, DataType.FLOAT32, ReduceOp.SUM).await();
                return null;
            } catch (PeerLostException e) {
                return e;
            }
        }
    }
}
