package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.Work;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Operations issued back to back without waiting complete in issue order, like a stream: when the
 * last one is done, every earlier one is, and operations on the same buffer see each other's
 * results in order (three in-place sums multiply the input by n^3).
 */
@Tag("multiprocess")
class AsyncOrderTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp", "tcp-socket-wait", "tcp-rc"})
    @Timeout(60)
    void backToBackOperationsCompleteInOrder(String provider) throws Exception {
        int n = 4;
        // tcp (JCCL_TCP_INLINE=auto by default): small chunks complete on post. tcp-socket-wait: the waiting caller
        // also sleeps on its sockets. tcp-rc: every chunk waits for the peer's ACK, as RC verbs.
        Map<String, String> knobs = switch (provider) {
            case "tcp-socket-wait" -> CommRanks.knobs("JCCL_TRANSPORT", "tcp", "JCCL_TCP_SOCKET_WAIT", "1");
            case "tcp-rc" -> CommRanks.knobs("JCCL_TRANSPORT", "tcp", "JCCL_TCP_INLINE", "0");
            default -> CommRanks.knobs("JCCL_TRANSPORT", provider);
        };
        List<String> errors = CommRanks.run(n, knobs, comm -> {
            List<String> bad = new ArrayList<>();
            int rank = comm.rank();
            long count = 20_011;
            MemorySegment chained = Data.alloc(8 * count);
            for (long i = 0; i < count; i++) chained.setAtIndex(ValueLayout.JAVA_LONG, i, i + rank);
            List<Work> works = new ArrayList<>();
            List<MemorySegment> gathered = new ArrayList<>();
            for (int round = 0; round < 3; round++) {
                works.add(comm.allReduce(chained, count, DataType.INT64, ReduceOp.SUM));
                MemorySegment in = Data.alloc(4L * 1000);
                for (int i = 0; i < 1000; i++) in.setAtIndex(ValueLayout.JAVA_INT, i, rank * 1000 + i + round);
                MemorySegment out = Data.alloc(4L * 1000 * n);
                gathered.add(out);
                works.add(comm.allGather(in, out, 1000, DataType.INT32));
                works.add(comm.broadcast(in, 1000, DataType.INT32, round % n));
            }
            works.add(comm.barrier());
            works.getLast().await();
            for (int i = 0; i < works.size(); i++) {
                if (!works.get(i).isDone()) bad.add("rank " + rank + ": work " + i + " not done after the last one");
                if (works.get(i).seq() != i + 1) bad.add("rank " + rank + ": work " + i + " has seq " + works.get(i).seq());
            }
            // Sum over ranks of (i + r) is n*i + n(n-1)/2; three in-place sums in a row multiply by n twice more.
            long base = n * (n - 1L) / 2;
            for (long i = 0; i < count; i++) {
                long want = (n * i + base) * n * n;
                if (chained.getAtIndex(ValueLayout.JAVA_LONG, i) != want) {
                    bad.add("rank " + rank + ": chained element " + i + " is " + chained.getAtIndex(ValueLayout.JAVA_LONG, i) + ", want " + want);
                    break;
                }
            }
            for (int round = 0; round < 3; round++) {
                for (int r = 0; r < n; r++) {
                    int got = gathered.get(round).getAtIndex(ValueLayout.JAVA_INT, r * 1000 + 7);
                    if (got != r * 1000 + 7 + round) bad.add("rank " + rank + ": round " + round + " block " + r + " holds " + got);
                }
            }
            return String.join("\n", bad);
        });
        for (String e : errors) assertTrue(e.isEmpty(), e);
        assertEquals(n, errors.size());
    }
}
