package dev.jccl.faults;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.Jccl;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.debug.DebugProvider;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A rank in a child JVM that joins through the launcher's variables (JCCL_TRANSPORT=debug and
 * JCCL_FAULTS in its environment), runs a few allReduces, checks them and prints
 * {@code OK rank R fired {...}}, for {@link ChildJvmFaultsTest}.
 */
public final class FaultChildRank {
    public static void main(String[] args) {
        try (Communicator comm = Jccl.init()) {
            long count = 100_003;
            for (int it = 0; it < 3; it++) {
                MemorySegment buf = Arena.ofAuto().allocate(4 * count, 64);
                for (long i = 0; i < count; i++) buf.setAtIndex(ValueLayout.JAVA_FLOAT, i, FaultRuns.value(comm.rank(), i, it));
                comm.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
                for (long i = 0; i < count; i++) {
                    float expected = 0;
                    for (int q = 0; q < comm.size(); q++) expected += FaultRuns.value(q, i, it);
                    if (buf.getAtIndex(ValueLayout.JAVA_FLOAT, i) != expected) throw new AssertionError("wrong at " + i);
                }
            }
            System.out.println("OK rank " + comm.rank() + " fired " + DebugProvider.fired(comm.rank()));
        }
    }
}
