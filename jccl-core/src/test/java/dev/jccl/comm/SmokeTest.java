package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class SmokeTest {
    @Test
    @Timeout(60)
    void twoRanksSumInts() throws Exception {
        List<int[]> out = Ranks.run(2, Ranks.knobs("JCCL_TRANSPORT", "shm"), comm -> {
            MemorySegment buf = Arena.ofAuto().allocate(4L * 10);
            for (int i = 0; i < 10; i++) buf.setAtIndex(ValueLayout.JAVA_INT, i, i + comm.rank() * 100);
            comm.allReduce(buf, 10, DataType.INT32, ReduceOp.SUM).await();
            return buf.toArray(ValueLayout.JAVA_INT);
        });
        for (int[] r : out) for (int i = 0; i < 10; i++) assertEquals(2 * i + 100, r[i]);
    }
}
