package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

/**
 * Every data type with every reduction operator (AVG included: sum, then one division per
 * element), through the reducing collectives, and every type through the moving ones, at small
 * counts, on three ranks.
 */
@Tag("multiprocess")
class TypesAndOpsTest {
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm", "tcp"})
    @Timeout(120)
    void everyTypeAndOperator(String provider) throws Exception {
        List<Verify> ranks = CommRanks.run(3, CommRanks.knobs("JCCL_TRANSPORT", provider, "JCCL_CHUNKSIZE", "256", "JCCL_BUFFSIZE", "4K"), comm -> {
            Verify v = new Verify(comm);
            for (DataType t : DataType.values()) {
                for (ReduceOp op : ReduceOp.values()) {
                    v.allReduce(t, op, 1009, false);
                    v.allReduce(t, op, 7, true);
                    v.reduceScatter(t, op, 101, false);
                    v.reduce(t, op, 333, 1, true);
                }
                v.allGather(t, 77, false);
                v.broadcast(t, 77, 2, true);
                v.allToAll(t, 19, false);
                v.sendRecvRing(t, 55);
            }
            return v;
        });
        CollectivesTest.assertConsistent(ranks);
    }
}
