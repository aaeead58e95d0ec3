package dev.jccl.comm;

import dev.jccl.testkit.CommRanks;
import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The steady state allocates nothing per chunk: after a warm-up (JIT, plan cache, links, the
 * registration cache), a loop of float32 sum allreduces over two ranks is measured with the JVM's
 * per-thread allocation counter on each rank's calling thread (which drives progress while it
 * awaits) and on its communicator's progress thread. The count is exact, not a timing. Two checks:
 * every thread stays within {@link #PER_CALL_BYTES} per call, and the calling thread allocates no
 * more per call at the measured size than over as many 8 B calls (one chunk), within
 * {@link #SIZE_SLACK_PER_CALL}; at 64 KiB chunks (16 each way per 1 MiB call) one object per chunk
 * breaks both.
 *
 * <p>What a call may allocate is the records of the call itself, made on the calling thread when it
 * issues: the {@code Work} handle the caller holds (32 B), and what lives on after the call returns,
 * so cannot be reused without handing one record to two operations: the operation the engine queues
 * (64 B) with its descriptor (56 B), its flight-recorder entry (48 B, kept for the last 32
 * operations) and its queue node (24 B). That is 224 B; where the JIT does not scalar-replace the
 * waiter's idle strategy, the await adds up to 184 B. Measured: 224-352 B per call on either
 * provider, at 8 B and at 1 MiB alike, and 408 B with escape analysis off (-XX:-DoEscapeAnalysis), the
 * most a loaded host's JIT can leave; the bound is above that, so it holds whatever the JIT did. {@link #SLACK_BYTES} covers work that is not per call (a look
 * at the abort board every JCCL_TIMEOUT/20 while idle, reading the counters); it is fixed, so it
 * cannot hide a per-call cost over thousands of calls. The 8 B calls over shm run on the LL protocol, whose
 * progress side (packing, one unsignaled write, polling lines) must allocate nothing at all, and which
 * the caller runs inline ({@code InlineCalls}: one reused operation, a flight-recorder slot rewritten in
 * place, a shared completed handle), so a call that finished inline allocates nothing on the calling
 * thread either; only a call handed on to {@code await()} (its peer later than the inline spin) may
 * allocate the records above, and the bound counts those. Measured 0 B per call on both threads, with
 * escape analysis off as well: nothing on that path relies on the JIT to remove an allocation.
 * The tcp receiver threads are reported, not asserted: a contended lock makes the JDK queue its waiter.
 */
@Tag("multiprocess")
class AllocationFreeTest {
    /** Bytes one issue-and-await may allocate on a thread; see the class comment. */
    static final long PER_CALL_BYTES = 480;
    /**
     * Bytes an 8 B shm call that did not finish inline may allocate: the queued records and the await, as
     * above, and on a loaded host (the whole suite running) the JIT may not scalar-replace the wait in the
     * few hundred such calls, which measured up to 460 B each (slack included). Inline calls must still
     * allocate nothing: 10,000 of them at even 8 B each would exceed the slack.
     */
    static final long NOT_INLINE_CALL_BYTES = 600;
    /** Fixed allowance per loop, independent of the number of calls. */
    static final long SLACK_BYTES = 64 * 1024;
    private static final int WARM_UP_CALLS = 10_000;
    /**
     * How much more a call of the measured size may allocate than an 8 B call (one chunk), per call:
     * the records are the same, so only a JIT that scalar-replaces a little less in one loop (a 16 B
     * lambda) may differ. One 16 B object per chunk would add 256 B at 64 KiB chunks.
     */
    static final long SIZE_SLACK_PER_CALL = 48;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Bytes on each thread over the measured loop, and on the calling thread over as many 8 B calls. */
    record Figures(int rank, long callerBytes, long progressBytes, long receiverBytes, long callerBytesAt8, int calls,
                   long inline, long handedOn) {
        String line(String provider, long bytes) {
            return String.format(Locale.ROOT, "allocation %s %d B x %d, rank %d: caller %.1f B/call (at 8 B %.1f),"
                    + " progress %.1f B/call, tcp receivers %.1f B/call; run inline %d, handed on %d", provider, bytes, calls, rank,
                    callerBytes / (double) calls, callerBytesAt8 / (double) calls, progressBytes / (double) calls,
                    receiverBytes / (double) calls, inline, handedOn);
        }
    }

    /**
     * {@code chunk} is JCCL_CHUNKSIZE: the tuner's own choice sends 1 MiB between two ranks in two
     * 512 KiB chunks, so the 64 KiB runs (16 chunks each way per call) are what would show an
     * allocation per chunk well above the per-call bound.
     */
    @ParameterizedTest(name = "{0}: {2} x {1} B, chunk {3}")
    @CsvSource({"shm, 8, 10000, auto", "shm, 1048576, 1000, auto", "shm, 1048576, 1000, 64K",
                "tcp, 8, 10000, auto", "tcp, 1048576, 1000, auto", "tcp, 1048576, 1000, 64K"})
    @Timeout(300)
    void steadyStateAllocatesOnlyTheCallsOwnRecords(String provider, long bytes, int calls, String chunk) throws Exception {
        assertTrue(THREADS.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes per thread");
        THREADS.setThreadAllocatedMemoryEnabled(true);
        long count = bytes / Float.BYTES;
        // A fixed spin budget: the automatic one re-reads /proc/loadavg every 50 ms, which costs bytes
        // per unit of time, not per call, and would blur these figures; 100 us outlasts a peer's reply on an idle host (auto spins 1 ms, WaitPolicy#inline).
        // The large rows compare with 8 B calls that carry the same records, so those are queued (JCCL_INLINE=0), not run inline.
        String inline = bytes <= 8 ? "1" : "0";
        List<Figures> figures = CommRanks.run(2, CommRanks.knobs("JCCL_TRANSPORT", provider, "JCCL_SPIN", "100us", "JCCL_CHUNKSIZE", chunk,
                "JCCL_INLINE", inline), comm -> {
            Thread progress = ((CommunicatorImpl) comm).progressThread();
            try (Arena arena = Arena.ofShared()) {
                MemorySegment in = arena.allocate(bytes, 64);
                MemorySegment out = arena.allocate(bytes, 64);
                MemorySegment in8 = arena.allocate(8, 64);
                MemorySegment out8 = arena.allocate(8, 64);
                for (long i = 0; i < count; i++) in.setAtIndex(ValueLayout.JAVA_FLOAT, i, comm.rank() + 1);
                // Warm-up: the issue path needs thousands of calls before the JIT compiles it fully,
                // whatever the size; then the plan, links and registrations of the measured size.
                loop(comm, in8, out8, 2, WARM_UP_CALLS);
                loop(comm, in, out, count, calls);
                comm.barrier().await();
                long at8Start = THREADS.getCurrentThreadAllocatedBytes();
                loop(comm, in8, out8, 2, calls);
                long at8 = THREADS.getCurrentThreadAllocatedBytes() - at8Start;
                comm.barrier().await();
                long receivers0 = receiverBytes(); // outside the caller's window: listing threads allocates
                long caller0 = THREADS.getCurrentThreadAllocatedBytes();
                long progress0 = THREADS.getThreadAllocatedBytes(progress.threadId());
                long[] inline0 = ((CommunicatorImpl) comm).inlineCounts();
                loop(comm, in, out, count, calls);
                long[] inline1 = ((CommunicatorImpl) comm).inlineCounts();
                long progress1 = THREADS.getThreadAllocatedBytes(progress.threadId());
                long caller1 = THREADS.getCurrentThreadAllocatedBytes();
                long receivers1 = receiverBytes();
                assertEquals(3f, out.getAtIndex(ValueLayout.JAVA_FLOAT, count - 1), "the sum of ranks 1 and 2");
                return new Figures(comm.rank(), caller1 - caller0, progress1 - progress0, receivers1 - receivers0, at8, calls,
                        inline1[0] - inline0[0], inline1[1] - inline0[1]);
            }
        });
        List<String> over = new ArrayList<>();
        long bound = PER_CALL_BYTES * calls + SLACK_BYTES;
        for (Figures f : figures) {
            System.out.println(f.line(provider + " chunk " + chunk, bytes));
            if (f.callerBytes() > bound) over.add("rank " + f.rank() + " calling thread allocated " + f.callerBytes() + " B");
            if (f.progressBytes() > bound) over.add("rank " + f.rank() + " progress thread allocated " + f.progressBytes() + " B");
            // The small path (LL, no completion or credit): the progress side of a call allocates nothing at all.
            if (bytes <= 8 && provider.equals("shm") && f.progressBytes() > SLACK_BYTES) {
                over.add("rank " + f.rank() + " progress thread allocated " + f.progressBytes() + " B on LL");
            }
            // The small path runs inline on the calling thread: a call that finished there allocated nothing at all; only
            // calls handed on to await (a peer later than the inline spin) and calls that could not take the fast path may.
            if (bytes <= 8 && provider.equals("shm")) {
                if (f.inline() + f.handedOn() < calls / 2) over.add("rank " + f.rank() + " ran only " + f.inline() + " of " + calls + " calls inline");
                long inlineBound = NOT_INLINE_CALL_BYTES * (calls - f.inline()) + SLACK_BYTES;
                if (f.callerBytes() > inlineBound) {
                    over.add("rank " + f.rank() + " calling thread allocated " + f.callerBytes() + " B although " + f.inline()
                            + " calls ran inline (bound " + inlineBound + " B)");
                }
            }
            if (f.callerBytes() - f.callerBytesAt8() > SIZE_SLACK_PER_CALL * calls + SLACK_BYTES) {
                over.add("rank " + f.rank() + " calling thread allocated " + f.callerBytes() + " B, but " + f.callerBytesAt8()
                        + " B over as many 8 B calls: the difference grows with the chunks");
            }
        }
        assertEquals(List.of(), over, "over " + calls + " calls of " + bytes + " B the bound is " + bound + " B per thread");
    }

    /**
     * Small calls on the first elements of a larger buffer (a count smaller than the segment, as NCCL's
     * API is used) run inline too and allocate nothing either: the view of the buffer's first bytes is an
     * object an operation keeps, so it is made once for the buffer, not once a call (two per call before).
     */
    @Test
    @Timeout(120)
    void smallCallsOnPartOfALargerBufferAllocateNothingInline() throws Exception {
        assertTrue(THREADS.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes per thread");
        THREADS.setThreadAllocatedMemoryEnabled(true);
        int calls = 10_000;
        List<long[]> seen = CommRanks.run(2, CommRanks.knobs("JCCL_TRANSPORT", "shm", "JCCL_SPIN", "100us"), comm -> {
            try (Arena arena = Arena.ofShared()) {
                MemorySegment in = arena.allocate(64 * 1024, 64);
                MemorySegment out = arena.allocate(64 * 1024, 64);
                in.setAtIndex(ValueLayout.JAVA_FLOAT, 1, comm.rank() + 1);
                loop(comm, in, out, 2, WARM_UP_CALLS);
                long[] inline0 = ((CommunicatorImpl) comm).inlineCounts();
                long before = THREADS.getCurrentThreadAllocatedBytes();
                loop(comm, in, out, 2, calls);
                long bytes = THREADS.getCurrentThreadAllocatedBytes() - before;
                long[] inline1 = ((CommunicatorImpl) comm).inlineCounts();
                assertEquals(3f, out.getAtIndex(ValueLayout.JAVA_FLOAT, 1), "the sum of ranks 1 and 2");
                return new long[] {bytes, inline1[0] - inline0[0]};
            }
        });
        for (int r = 0; r < 2; r++) {
            long bytes = seen.get(r)[0];
            long inline = seen.get(r)[1];
            System.out.printf(Locale.ROOT, "allocation shm 8 B of a 64 KiB buffer x %d, rank %d: caller %.1f B/call; run inline %d%n",
                    calls, r, bytes / (double) calls, inline);
            assertTrue(inline >= calls / 2, "rank " + r + " ran only " + inline + " of " + calls + " calls inline");
            long bound = NOT_INLINE_CALL_BYTES * (calls - inline) + SLACK_BYTES;
            assertTrue(bytes <= bound, "rank " + r + " calling thread allocated " + bytes + " B although " + inline
                    + " of " + calls + " calls ran inline (bound " + bound + " B)");
        }
    }

    /** Issues and awaits {@code calls} allreduces; allocates nothing of its own. */
    private static void loop(Communicator comm, MemorySegment in, MemorySegment out, long count, int calls) {
        for (int i = 0; i < calls; i++) comm.allReduce(in, out, count, DataType.FLOAT32, ReduceOp.SUM).await();
    }

    /** Bytes allocated so far by every tcp receiver and sender thread in this JVM (both ranks' together). */
    private static long receiverBytes() {
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("jccl-tcp-")) sum += Math.max(0, THREADS.getThreadAllocatedBytes(t.threadId()));
        }
        return sum;
    }
}
