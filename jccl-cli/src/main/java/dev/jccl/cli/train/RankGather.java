package dev.jccl.cli.train;

import dev.jccl.Communicator;
import dev.jccl.DataType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/** Small all-gathers of what ranks report at the end of the demo, over the communicator itself. */
final class RankGather {
    private RankGather() {}

    /** Every rank's {@code value}, in rank order. */
    static long[] longs(Communicator comm, long value) {
        try (Arena arena = Arena.ofShared()) {
            MemorySegment in = arena.allocate(Long.BYTES);
            MemorySegment out = arena.allocate((long) Long.BYTES * comm.size());
            in.set(ValueLayout.JAVA_LONG, 0, value);
            comm.allGather(in, out, 1, DataType.INT64).await();
            return out.toArray(ValueLayout.JAVA_LONG);
        }
    }

    /** Every rank's bytes, in rank order: lengths first, then one gather padded to the longest. */
    static List<byte[]> bytes(Communicator comm, byte[] mine) {
        long[] lengths = longs(comm, mine.length);
        long max = 1;
        for (long l : lengths) max = Math.max(max, l);
        try (Arena arena = Arena.ofShared()) {
            MemorySegment in = arena.allocate(max);
            MemorySegment.copy(MemorySegment.ofArray(mine), 0, in, 0, mine.length);
            MemorySegment out = arena.allocate(max * comm.size());
            comm.allGather(in, out, max, DataType.UINT8).await();
            List<byte[]> all = new ArrayList<>();
            for (int r = 0; r < comm.size(); r++) all.add(out.asSlice(r * max, lengths[r]).toArray(ValueLayout.JAVA_BYTE));
            return all;
        }
    }
}
