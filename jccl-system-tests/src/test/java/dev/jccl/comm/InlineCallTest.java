package dev.jccl.comm;

import dev.jccl.CollectiveMismatchException;
import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.JcclException;
import dev.jccl.ReduceOp;
import dev.jccl.Work;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The small-call fast path ({@link InlineCalls}): a repeated LL allreduce issued while nothing is
 * queued runs on its caller's thread. Its results are the queued path's bit for bit, it numbers
 * calls as the queued path does, it never overtakes a queued call, and a rank that calls something
 * else makes every rank fail naming it, inline callers included. While callers run inline the
 * progress thread sleeps long, so what it alone can finish (a call queued or handed on that nobody
 * awaits) must still be finished by it.
 */
@Tag("multiprocess")
class InlineCallTest {
    private static final int CALLS = 200;
    private static final long COUNT = 7;

    /** Per call, the bits of every element of rank 0's result, and the fast path's counts. */
    private record Run(List<Integer> bits, long inline, long handedOn) {}

    @Test
    @Timeout(120)
    void inlineCallsMatchQueuedOnesBitForBit() throws Exception {
        Run inline = run("1");
        Run queued = run("0");
        assertEquals(queued.bits(), inline.bits(), "inline and queued calls gave different bits");
        assertTrue(inline.inline() + inline.handedOn() >= CALLS / 2, "only " + inline + " of " + CALLS + " calls took the fast path");
        assertEquals(0, queued.inline() + queued.handedOn(), "JCCL_INLINE=0 still ran calls inline");
    }

    private static Run run(String inlineKnob) throws Exception {
        List<Run> runs = CommRanks.run(3, CommRanks.knobs("JCCL_TRANSPORT", "shm", "JCCL_PROTO", "ll", "JCCL_INLINE", inlineKnob), comm -> {
            MemorySegment out = Data.alloc(4 * COUNT);
            List<Integer> bits = new ArrayList<>();
            long[] before = null;
            for (int call = 0; call < CALLS; call++) {
                if (call == 2) before = ((CommunicatorImpl) comm).inlineCounts();
                MemorySegment in = Data.randomFloats(COUNT, comm.rank(), call);
                Work w = comm.allReduce(in, out, COUNT, DataType.FLOAT32, call % 3 == 0 ? ReduceOp.AVG : ReduceOp.SUM);
                assertEquals(call + 1, w.seq(), "rank " + comm.rank() + ": the handle of call " + call);
                w.await();
                assertTrue(w.isDone());
                for (long i = 0; i < COUNT; i++) bits.add(Float.floatToRawIntBits(out.getAtIndex(ValueLayout.JAVA_FLOAT, i)));
            }
            long[] after = ((CommunicatorImpl) comm).inlineCounts();
            return new Run(bits, after[0] - before[0], after[1] - before[1]);
        });
        return runs.getFirst();
    }

    @Test
    @Timeout(90)
    void aCallerThatCallsSomethingElseFailsTheInlineCallersToo() throws Exception {
        List<JcclException> seen = CommRanks.run(3, CommRanks.knobs("JCCL_TRANSPORT", "shm", "JCCL_TIMEOUT", "10s", "JCCL_PROTO", "ll"), comm -> {
            MemorySegment buf = Data.alloc(4 * 100);
            try {
                for (int i = 0; i < 5; i++) comm.allReduce(buf, buf, 8, DataType.FLOAT32, ReduceOp.SUM).await();
            } catch (JcclException e) {
                return e;
            }
            // Ranks 0 and 1 repeat the shape (inline); rank 2 calls another count (queued).
            return Outcomes.failureOf(comm, () -> comm.allReduce(buf, buf, comm.rank() == 2 ? 9 : 8, DataType.FLOAT32, ReduceOp.SUM));
        });
        for (int r = 0; r < 3; r++) {
            JcclException e = seen.get(r);
            assertNotNull(e, "rank " + r + " did not fail");
            CollectiveMismatchException m = Outcomes.find(e, CollectiveMismatchException.class);
            assertNotNull(m, "rank " + r + " failed with something else: " + e);
            assertTrue(m.getMessage().contains("count: ") && m.getMessage().contains("rank 2 has 9"), m.getMessage());
            assertTrue(m.getMessage().contains("allReduce") && m.getMessage().contains("seq 6"), m.getMessage());
        }
    }

    @Test
    @Timeout(90)
    void aSmallCallNeverOvertakesAQueuedOne() throws Exception {
        everyRoundRight(20, 1 << 18, (comm, small, big, round, bad) -> {
            smallCalls(comm, small, 3);
            small.setAtIndex(ValueLayout.JAVA_FLOAT, 0, 10 * (comm.rank() + 1));
            Work first = bigSum(comm, big);
            Work second = comm.allReduce(small, small, 2, DataType.FLOAT32, ReduceOp.SUM);
            second.await();
            if (!first.isDone()) bad.add("round " + round + ": the small call finished before the large one issued first");
            first.await();
            if (big.getAtIndex(ValueLayout.JAVA_FLOAT, 4096) != 3f) bad.add("round " + round + ": large sum wrong");
            if (small.getAtIndex(ValueLayout.JAVA_FLOAT, 0) != 30f) bad.add("round " + round + ": small sum wrong");
        });
    }

    @Test
    @Timeout(90)
    void callsNobodyAwaitsAfterInlineOnesAreFinishedByTheProgressThread() throws Exception {
        everyRoundRight(10, 1 << 16, (comm, small, big, round, bad) -> {
            smallCalls(comm, small, 50);
            // Queued (a new shape, Simple) while the thread sleeps behind the inline calls: only it can run this.
            Work queued = bigSum(comm, big);
            if (!doneWithoutAwait(queued)) bad.add("round " + round + ": a queued call nobody awaited did not finish");
            if (big.getAtIndex(ValueLayout.JAVA_FLOAT, 4096) != 3f) bad.add("round " + round + ": queued sum wrong");
            // A repeated small call whose peer comes 30 ms late: its caller hands it on after its spin, and does not await.
            smallCalls(comm, small, 3);
            if (comm.rank() == 1) Thread.sleep(30);
            small.setAtIndex(ValueLayout.JAVA_FLOAT, 0, comm.rank() + 1);
            Work late = comm.allReduce(small, small, 2, DataType.FLOAT32, ReduceOp.SUM);
            if (!doneWithoutAwait(late)) bad.add("round " + round + ": a handed-on call nobody awaited did not finish");
            if (small.getAtIndex(ValueLayout.JAVA_FLOAT, 0) != 3f) bad.add("round " + round + ": handed-on sum wrong");
        });
    }

    /** {@code times} awaited allreduces of 2 floats in {@code small}: a shape repeated, so later ones run inline. */
    private static void smallCalls(Communicator comm, MemorySegment small, int times) {
        for (int i = 0; i < times; i++) comm.allReduce(small, small, 2, DataType.FLOAT32, ReduceOp.SUM).await();
    }

    /** Zeroes {@code big}, puts rank + 1 in every 4096th of its floats, and issues their sum in place. */
    private static Work bigSum(Communicator comm, MemorySegment big) {
        long large = big.byteSize() / Float.BYTES;
        big.fill((byte) 0);
        for (long i = 0; i < large; i += 4096) big.setAtIndex(ValueLayout.JAVA_FLOAT, i, comm.rank() + 1);
        return comm.allReduce(big, big, large, DataType.FLOAT32, ReduceOp.SUM);
    }

    /** One round of a two-rank test: what went wrong goes into {@code bad}. */
    private interface Round {
        void run(Communicator comm, MemorySegment small, MemorySegment big, int round, List<String> bad) throws Exception;
    }

    /** Runs {@code rounds} rounds on 2 ranks over shm, with an 8 B buffer and one of {@code large} floats; asserts nothing went wrong. */
    private static void everyRoundRight(int rounds, long large, Round body) throws Exception {
        List<String> wrong = CommRanks.run(2, CommRanks.knobs("JCCL_TRANSPORT", "shm"), comm -> {
            MemorySegment small = Data.alloc(8);
            MemorySegment big = Data.alloc(4 * large);
            List<String> bad = new ArrayList<>();
            for (int round = 0; round < rounds; round++) body.run(comm, small, big, round, bad);
            return String.join("; ", bad);
        });
        assertEquals(List.of("", ""), wrong);
    }

    /** Polls {@code w.isDone()}, which drives no progress, for up to 20 s; then awaits it either way, so a failure shows. */
    private static boolean doneWithoutAwait(Work w) throws InterruptedException {
        long until = System.nanoTime() + 20_000_000_000L;
        while (!w.isDone() && System.nanoTime() - until < 0) Thread.sleep(1);
        boolean done = w.isDone();
        w.await();
        return done;
    }
}
