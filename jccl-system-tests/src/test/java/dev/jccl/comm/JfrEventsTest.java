package dev.jccl.comm;

import dev.jccl.testkit.CommRanks;
import dev.jccl.DataType;
import dev.jccl.JcclException;
import dev.jccl.ReduceOp;
import dev.jccl.ddp.BucketPlan;
import dev.jccl.ddp.DistributedDataParallel;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A short run of two thread-ranks under a JFR recording: an allreduce, a broadcast, one DDP step of
 * two buckets and a mismatched allreduce. Read back from the file, the recording holds the events
 * jccl promises, with the fields that say what happened.
 */
@Tag("multiprocess")
class JfrEventsTest {
    /** What a rank saw, for comparing with the recording. */
    record Seen(long allReduceSeq, long broadcastSeq, List<BucketPlan.Bucket> buckets, JcclException failure) {}

    @Test
    @Timeout(120)
    void aRecordingHoldsCollectivesConnectionsBucketsAndTheFailure() throws Exception {
        Path file = Files.createTempFile("jccl-", ".jfr");
        List<Seen> seen;
        try (Recording recording = new Recording()) {
            recording.enable("dev.jccl.Collective");
            recording.enable("dev.jccl.Connection");
            recording.enable("dev.jccl.Bucket");
            recording.enable("dev.jccl.Failure");
            recording.start();
            seen = CommRanks.run(2, CommRanks.knobs("JCCL_TRANSPORT", "shm", "JCCL_TIMEOUT", "5s"), comm -> {
                var allReduce = comm.allReduce(new float[1000], ReduceOp.SUM);
                allReduce.await();
                var broadcast = comm.broadcast(Data.alloc(1024), 256, DataType.FLOAT32, 0);
                broadcast.await();
                List<BucketPlan.Bucket> buckets = ddpStep(comm);
                JcclException f = Outcomes.failureOf(comm, () -> comm.allReduce(Data.alloc(64), 10 + comm.rank(), DataType.FLOAT32, ReduceOp.SUM));
                return new Seen(allReduce.seq(), broadcast.seq(), buckets, f);
            });
            recording.stop();
            recording.dump(file);
        }
        try {
            List<RecordedEvent> events = RecordingFile.readAllEvents(file);
            for (int r = 0; r < 2; r++) {
                int rank = r;
                Seen s = seen.get(r);
                assertNotNull(s.failure(), "rank " + r + " did not fail on the mismatched call");

                RecordedEvent ar = one(events, "dev.jccl.Collective", e -> e.getInt("rank") == rank && e.getLong("seq") == s.allReduceSeq());
                assertEquals("allReduce", ar.getString("op"));
                assertEquals(4000, ar.getLong("bytes"));
                assertEquals("float", ar.getString("dataType"));
                assertEquals("sum", ar.getString("reduceOp"));
                assertEquals(2, ar.getInt("ranks"));
                assertTrue(ar.getInt("channels") >= 1, ar::toString);
                assertFalse(ar.getString("algorithm").isEmpty(), ar::toString);
                assertTrue(ar.getBoolean("succeeded"));

                RecordedEvent bc = one(events, "dev.jccl.Collective", e -> e.getInt("rank") == rank && e.getLong("seq") == s.broadcastSeq());
                assertEquals("broadcast", bc.getString("op"));
                assertEquals(1024, bc.getLong("bytes"));
                assertEquals(0, bc.getInt("root"));

                assertTrue(events.stream().anyMatch(e -> is(e, "dev.jccl.Collective") && e.getInt("rank") == rank
                        && !e.getBoolean("succeeded")), "rank " + r + " recorded no failed operation");

                RecordedEvent link = one(events, "dev.jccl.Connection", e -> e.getInt("rank") == rank && e.getInt("channel") == 0);
                assertEquals(1 - rank, link.getInt("peer"));
                assertEquals("shm", link.getString("provider"));
                assertTrue(link.getString("address").contains("via SHM"), link::toString);

                for (BucketPlan.Bucket b : s.buckets()) {
                    RecordedEvent be = one(events, "dev.jccl.Bucket", e -> e.getInt("rank") == rank && e.getInt("bucket") == b.index());
                    assertEquals(b.bytes(), be.getLong("bytes"));
                    assertEquals(b.slots().size(), be.getInt("params"));
                    assertEquals(0, be.getLong("step"));
                    assertEquals("allReduce", be.getString("collective"));
                }

                RecordedEvent failure = one(events, "dev.jccl.Failure", e -> e.getInt("rank") == rank);
                assertEquals("MISMATCH", failure.getString("kind"));
                assertEquals(-1, failure.getInt("lostRank"));
                assertTrue(failure.getString("message").contains("count"), failure::toString);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** One synchronized DDP step over two parameters in two buckets; returns the plan's buckets. */
    private static List<BucketPlan.Bucket> ddpStep(dev.jccl.Communicator comm) {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment values = arena.allocate(500 * 4, 8);
            MemorySegment grads = arena.allocate(500 * 4, 8);
            try (DistributedDataParallel ddp = DistributedDataParallel.builder(comm)
                    .param("w", values.asSlice(0, 300 * 4), grads.asSlice(0, 300 * 4))
                    .param("b", values.asSlice(300 * 4), grads.asSlice(300 * 4))
                    .bucketBytes(1000).build()) {
                ddp.gradReady("b");
                ddp.gradReady("w");
                ddp.finish();
                assertEquals(2, ddp.bucketPlan().buckets().size());
                return ddp.bucketPlan().buckets();
            }
        }
    }

    private static boolean is(RecordedEvent e, String name) {
        return e.getEventType().getName().equals(name);
    }

    private static RecordedEvent one(List<RecordedEvent> events, String name, Predicate<RecordedEvent> which) {
        List<RecordedEvent> found = events.stream().filter(e -> is(e, name) && which.test(e)).toList();
        assertEquals(1, found.size(), () -> found.size() + " " + name + " events match, expected one: " + found);
        return found.getFirst();
    }
}
