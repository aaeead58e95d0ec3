package dev.jccl.cli.perf.coll;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;

import java.lang.foreign.MemorySegment;

/** Fills one rank's input for a test and counts the output elements that differ from the exact answer. */
final class CollCheck {
    private CollCheck() {}

    /** The input of {@code rank}: element k of its input buffer is pattern element k. */
    static void fillInput(CollTest test, DataType t, MemorySegment in, long count, int rank, int n) {
        CollPattern.fill(t, in, test.inputElems(count, n), rank, 0);
    }

    /** Output elements of {@code rank} whose bits differ from the expected ones (#wrong). */
    static long wrong(CollTest test, DataType t, ReduceOp op, int root, MemorySegment out, long count, int rank, int n) {
        long wrong = 0;
        switch (test) {
            case ALLREDUCE -> {
                for (long j = 0; j < count; j++) wrong += differs(t, out, j, CollPattern.reduced(t, op, n, j));
            }
            case REDUCE -> {
                if (rank != root) return 0; // only the root's output is defined
                for (long j = 0; j < count; j++) wrong += differs(t, out, j, CollPattern.reduced(t, op, n, j));
            }
            case REDUCE_SCATTER -> {
                for (long j = 0; j < count; j++) {
                    wrong += differs(t, out, j, CollPattern.reduced(t, op, n, rank * count + j));
                }
            }
            case BROADCAST -> {
                for (long j = 0; j < count; j++) wrong += differs(t, out, j, bits(t, root, j));
            }
            case ALL_GATHER -> {
                for (int s = 0; s < n; s++) {
                    for (long j = 0; j < count; j++) wrong += differs(t, out, s * count + j, bits(t, s, j));
                }
            }
            case ALLTOALL -> {
                for (int s = 0; s < n; s++) {
                    for (long j = 0; j < count; j++) wrong += differs(t, out, s * count + j, bits(t, s, rank * count + j));
                }
            }
        }
        return wrong;
    }

    private static long bits(DataType t, int rank, long index) {
        return CollPattern.encode(t, CollPattern.value(t, rank, index));
    }

    private static int differs(DataType t, MemorySegment out, long i, long expected) {
        return CollPattern.readBits(t, out, i) == expected ? 0 : 1;
    }
}
