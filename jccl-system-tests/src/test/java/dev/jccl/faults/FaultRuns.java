package dev.jccl.faults;

import dev.jccl.DataType;
import dev.jccl.JcclException;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import dev.jccl.testkit.debug.DebugProvider;
import dev.jccl.testkit.debug.FaultSpec;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;

/** Threads as ranks over the debug provider, each returning how its allReduces ended: "ok", "wrong ..." or "error: ...". */
final class FaultRuns {
    private FaultRuns() {}

    static float value(int rank, long i, int salt) {
        return (float) ((i * 7 + rank * 13 + salt * 5) % 11 - 5);
    }

    /** {@code iterations} allReduces of {@code count} float32 on {@code n} ranks under {@code spec}. */
    static List<String> allReduce(int n, Map<String, String> knobs, String spec, long count, int iterations) {
        return CommRanks.runWithFaults(n, r -> knobs, FaultSpec.parse(spec), comm -> {
            try {
                String wrong = null;
                for (int it = 0; it < iterations; it++) {
                    MemorySegment in = Arena.ofAuto().allocate(4 * count, 64);
                    MemorySegment out = Arena.ofAuto().allocate(4 * count, 64);
                    for (long i = 0; i < count; i++) in.setAtIndex(ValueLayout.JAVA_FLOAT, i, value(comm.rank(), i, it));
                    comm.allReduce(in, out, count, DataType.FLOAT32, ReduceOp.SUM).await();
                    for (long i = 0; i < count; i++) {
                        float expected = 0;
                        for (int q = 0; q < n; q++) expected += value(q, i, it);
                        if (wrong == null && out.getAtIndex(ValueLayout.JAVA_FLOAT, i) != expected) {
                            wrong = "wrong at element " + i + " of iteration " + it + " " + DebugProvider.fired(comm.rank());
                        }
                    }
                }
                comm.barrier().await(); // a rank with a wrong result carries on, as an application that cannot tell would
                if (wrong != null) return wrong;
                Map<FaultSpec.Kind, Long> fired = DebugProvider.fired(comm.rank());
                return fired.isEmpty() ? "ok" : "ok (fired " + fired + ")";
            } catch (JcclException e) {
                return "error: " + e.getMessage();
            }
        });
    }
}
