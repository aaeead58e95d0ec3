package dev.jccl.comm;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import dev.jccl.trace.MiniJson;
import dev.jccl.trace.Timeline;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** JCCL_TRACE outside the demo: each communicator writes its rank's Chrome trace when it is closed. */
@Tag("multiprocess")
class TraceOnCloseTest {
    private static final int RANKS = 3;
    private static final int INTS = 1 << 16;

    @TempDir
    Path dir;

    @Test
    @Timeout(60)
    void closingWritesEachRanksChunkEventsToItsOwnFile() throws Exception {
        Path trace = dir.resolve("out/trace.json");
        CommRanks.run(RANKS, CommRanks.knobs("JCCL_TRANSPORT", "shm", "JCCL_CHUNKSIZE", "16K", "JCCL_TRACE", trace.toString()), comm -> {
            allReduce(comm);
            try (Communicator sub = comm.split(0, -comm.rank())) { // ranks reversed in the child
                assertSame(((CommunicatorImpl) comm).timeline(), ((CommunicatorImpl) sub).timeline(),
                        "a split communicator records on its parent's timeline");
                allReduce(sub);
            }
            return null;
        });
        try (Stream<Path> files = Files.list(dir.resolve("out"))) {
            assertEquals(Set.of("trace.rank0.json", "trace.rank1.json", "trace.rank2.json"),
                    files.map(f -> f.getFileName().toString()).collect(Collectors.toSet()));
        }
        for (int rank = 0; rank < RANKS; rank++) {
            Map<?, ?> doc = (Map<?, ?>) MiniJson.parse(Files.readString(dir.resolve("out/trace.rank" + rank + ".json")));
            List<Map<?, ?>> events = ((List<?>) doc.get("traceEvents")).stream().<Map<?, ?>>map(e -> (Map<?, ?>) e).toList();
            Set<Object> pids = new HashSet<>();
            events.forEach(e -> pids.add(e.get("pid")));
            assertEquals(Set.of((double) rank), pids, "only rank " + rank + " in its file");
            long chunkSends = events.stream().filter(e -> "X".equals(e.get("ph")) && "ch0".equals(e.get("cat"))
                    && String.valueOf(e.get("name")).startsWith("chunk ")).count();
            assertTrue(chunkSends >= 2, "rank " + rank + " chunk events: " + chunkSends);
            assertTrue(events.stream().anyMatch(e -> "thread_name".equals(e.get("name"))
                    && Map.of("name", "ch0 send").equals(e.get("args"))), "track names for rank " + rank);
        }
    }

    @Test
    @Timeout(60)
    void withoutTheKnobNothingIsRecordedNorWritten() throws Exception {
        Set<String> before = rankFilesHere();
        CommRanks.run(RANKS, CommRanks.knobs("JCCL_TRANSPORT", "shm"), comm -> {
            assertSame(Timeline.DISABLED, ((CommunicatorImpl) comm).timeline());
            allReduce(comm);
            return null;
        });
        assertEquals(before, rankFilesHere());
    }

    private static void allReduce(Communicator comm) {
        MemorySegment buf = Arena.ofAuto().allocate(4L * INTS);
        comm.allReduce(buf, INTS, DataType.INT32, ReduceOp.SUM).await();
    }

    /** Files in the working directory that look like a rank's trace. */
    private static Set<String> rankFilesHere() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(""))) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.matches(".*\\.rank\\d+(\\..*)?")).collect(Collectors.toSet());
        }
    }
}
