package dev.jccl.comm;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Bad arguments are refused at the call, naming the values, and nothing is issued: the valid call
 * after a dozen refused ones is sequence number 1 and completes with its peer.
 */
@Tag("multiprocess")
class ArgumentChecksTest {
    private static void refused(List<String> out, String mustContain, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        if (!e.getMessage().contains(mustContain)) out.add("'" + mustContain + "' not in: " + e.getMessage());
    }

    @Test
    @Timeout(60)
    void badCallsAreRefusedBeforeAnythingIsSent() throws Exception {
        List<List<String>> all = CommRanks.run(2, CommRanks.knobs(), comm -> {
            List<String> bad = new ArrayList<>();
            MemorySegment small = Data.alloc(40);
            MemorySegment big = Data.alloc(4000);
            if (comm.rank() == 0) checks(comm, bad, small, big);
            long seq = comm.allReduce(big, 1000, DataType.FLOAT32, ReduceOp.SUM).seq();
            if (seq != 1) bad.add("first valid call has seq " + seq + ": refused calls were issued");
            comm.barrier().await();
            return bad;
        });
        assertEquals(List.of(List.of(), List.of()), all);
    }

    private static void checks(Communicator comm, List<String> bad, MemorySegment small, MemorySegment big) {
        refused(bad, "negative count -1", () -> comm.allReduce(big, -1, DataType.FLOAT32, ReduceOp.SUM));
        refused(bad, "input buffer has 40 bytes but the call needs 44", () -> comm.allReduce(small, big, 11, DataType.FLOAT32, ReduceOp.SUM));
        refused(bad, "output buffer has 40 bytes but the call needs 80",
                () -> comm.allGather(big, small, 10, DataType.FLOAT32));
        refused(bad, "root 2 is not a rank of this communicator (size 2)", () -> comm.broadcast(big, 10, DataType.FLOAT32, 2));
        refused(bad, "root -1", () -> comm.reduce(big, big, 10, DataType.FLOAT32, ReduceOp.SUM, -1));
        refused(bad, "heap segment", () -> comm.allReduce(MemorySegment.ofArray(new float[10]), 10, DataType.FLOAT32, ReduceOp.SUM));
        try (Arena confined = Arena.ofConfined()) {
            MemorySegment mine = confined.allocate(40);
            refused(bad, "confined", () -> comm.allReduce(mine, 10, DataType.FLOAT32, ReduceOp.SUM));
        }
        refused(bad, "read-only", () -> comm.allReduce(big, big.asReadOnly(), 10, DataType.FLOAT32, ReduceOp.SUM));
        refused(bad, "overlap", () -> comm.allReduce(big, big.asSlice(4), 10, DataType.FLOAT32, ReduceOp.SUM));
        refused(bad, "cannot send to itself", () -> comm.send(big, 10, DataType.FLOAT32, 0));
        refused(bad, "peer 7", () -> comm.recv(big, 10, DataType.FLOAT32, 7));
        refused(bad, "data type is null", () -> comm.allReduce(big, 10, null, ReduceOp.SUM));
        refused(bad, "reduce op is null", () -> comm.reduceScatter(big, small, 1, DataType.FLOAT32, null));
        refused(bad, "input buffer is null", () -> comm.allToAll(null, big, 10, DataType.FLOAT32));
        refused(bad, "allReduce on arrays: input has 4 elements but output has 3", () -> comm.allReduce(new float[4], new float[3], ReduceOp.SUM));
        refused(bad, "needs 2 x output", () -> comm.reduceScatter(new int[5], new int[2], ReduceOp.MAX));
        refused(bad, "not supported", () -> comm.arrays(new dev.jccl.ArrayCall(dev.jccl.ArrayCall.Kind.SEND, new byte[3], null, null, 1)));
    }
}
