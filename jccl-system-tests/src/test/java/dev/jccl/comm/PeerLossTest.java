package dev.jccl.comm;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.Jccl;
import dev.jccl.PeerLostException;
import dev.jccl.ReduceOp;
import dev.jccl.bootstrap.TcpStoreClient;
import dev.jccl.testkit.PrivateShmDir;
import dev.jccl.testkit.jvm.ChildJvm;
import dev.jccl.testkit.jvm.JavaCommand;
import dev.jccl.testkit.jvm.JvmJob;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rank 2 runs in a child JVM that is killed while ranks 0 and 1 (threads here) wait for it in an
 * allReduce. The survivors learn of it through the transport (shm: the process is gone; tcp: the
 * socket closed) long before JCCL_TIMEOUT (30 s), and each fails with a PeerLostException naming
 * rank 2, the allReduce and its sequence number. "warm": every link already exists and the peer dies
 * mid-transfer; "cold": the allReduce needs new links to the dead rank, and the survivors learn of
 * its death from the links they have while they wait for it to connect.
 */
@Tag("multiprocess")
class PeerLossTest {
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"shm, warm", "tcp, cold"})
    @Timeout(90)
    void killedRankIsNamedBySurvivors(String provider, String links) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (PrivateShmDir dir = PrivateShmDir.create("jccl-loss-");
             JvmJob job = JvmJob.builder(3).jvmRanks(2)
                     .command(JavaCommand.main(CommChildRank.class).args(provider, dir.toString(), links)).start()) {
            String token = job.token();
            CountDownLatch ready = new CountDownLatch(1);
            List<Future<PeerLostException>> survivors = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                int rank = r;
                survivors.add(pool.submit(() -> {
                    try (TcpStoreClient store = job.storeClient(30_000_000_000L);
                         Communicator comm = Jccl.init(CommOptions.builder().store(store).rank(rank).size(3).ignoreEnvironment()
                                 .transports(provider).knob("JCCL_SHM_DIR", dir.toString()).knob("JCCL_TIMEOUT", "30s")
                                 .knob("JCCL_AUTH_TOKEN", token).build())) {
                        comm.barrier().await();
                        MemorySegment buf = Data.alloc(4L << 20);
                        if (links.equals("warm")) comm.allReduce(buf, 1 << 20, DataType.FLOAT32, ReduceOp.SUM).await();
                        ready.await(30, TimeUnit.SECONDS);
                        try {
                            comm.allReduce(buf, 1 << 20, DataType.FLOAT32, ReduceOp.SUM).await();
                            return null;
                        } catch (PeerLostException e) {
                            return e;
                        }
                    }
                }));
            }
            ChildJvm child = job.rank(2);
            assertEquals("READY", child.readLine(60_000_000_000L));
            ready.countDown();
            Thread.sleep(300); // let the survivors block in the allReduce
            long killedAt = System.nanoTime();
            child.kill();
            for (int r = 0; r < 2; r++) {
                PeerLostException e = survivors.get(r).get(60, TimeUnit.SECONDS);
                long ms = (System.nanoTime() - killedAt) / 1_000_000;
                assertTrue(e != null, "rank " + r + " completed although rank 2 was killed");
                assertEquals(2, e.lostRank(), e.getMessage());
                assertEquals("allReduce", e.op());
                assertEquals(links.equals("warm") ? 3 : 2, e.seq());
                assertTrue(e.getMessage().contains("lost rank 2"), e.getMessage());
                System.out.println(provider + " " + links + ": rank " + r + " failed " + ms + " ms after the kill");
                assertTrue(ms < 15_000, "rank " + r + " noticed after " + ms + " ms");
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
