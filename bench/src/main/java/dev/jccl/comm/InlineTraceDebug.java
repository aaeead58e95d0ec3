package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The last 40 of 20,000 out-of-place 8 B allreduces over shm, threads as ranks, per rank: each
 * call's time in µs, marked H where the caller handed the call on to {@code await()} instead of
 * finishing it inline. Shows two ranks taking turns waiting (one rank's H lines up with the
 * other's short call). Not a test.
 *
 * <pre>bench/run-main.sh dev.jccl.comm.InlineTraceDebug JCCL_SPIN JCCL_INLINE   (e.g. 100us 1)</pre>
 */
public final class InlineTraceDebug {
    public static void main(String[] args) throws Exception {
        int calls = 20_000;
        var out = CommRanks.run(2, CommRanks.knobs("JCCL_TRANSPORT", "shm", "JCCL_SPIN", args[0], "JCCL_INLINE", args[1]), comm -> {
            MemorySegment src = Arena.ofAuto().allocate(8, 64);
            MemorySegment dst = Arena.ofAuto().allocate(8, 64);
            long[] t = new long[calls];
            boolean[] handedOn = new boolean[calls];
            for (int i = 0; i < calls; i++) {
                long before = ((CommunicatorImpl) comm).inlineCounts()[1];
                long s = System.nanoTime();
                comm.allReduce(src, dst, 2, DataType.FLOAT32, ReduceOp.SUM).await();
                t[i] = System.nanoTime() - s;
                handedOn[i] = ((CommunicatorImpl) comm).inlineCounts()[1] != before;
            }
            StringBuilder b = new StringBuilder("rank " + comm.rank() + ":");
            for (int i = calls - 40; i < calls; i++) b.append(' ').append(t[i] / 1000).append(handedOn[i] ? "H" : "");
            return b.toString();
        });
        out.forEach(System.out::println);
    }
}
