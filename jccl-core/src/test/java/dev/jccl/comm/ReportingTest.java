package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Operation descriptors, their fingerprints, the flight recorder and the failure report, without ranks. */
@Tag("unit")
class ReportingTest {
    private static OpDescriptor allReduce(long seq, long count) {
        return new OpDescriptor(seq + 1, OpKind.ALL_REDUCE, seq, count, DataType.FLOAT32, ReduceOp.SUM, 0);
    }

    @Test
    void fingerprintsDifferInEveryAgreedField() {
        OpDescriptor base = allReduce(3, 1000);
        Set<Integer> seen = new HashSet<>();
        seen.add(base.fingerprint());
        seen.add(allReduce(4, 1000).fingerprint());
        seen.add(allReduce(3, 999).fingerprint());
        seen.add(new OpDescriptor(4, OpKind.ALL_REDUCE, 3, 1000, DataType.INT32, ReduceOp.SUM, 0).fingerprint());
        seen.add(new OpDescriptor(4, OpKind.ALL_REDUCE, 3, 1000, DataType.FLOAT32, ReduceOp.AVG, 0).fingerprint());
        seen.add(new OpDescriptor(4, OpKind.REDUCE, 3, 1000, DataType.FLOAT32, ReduceOp.SUM, 0).fingerprint());
        seen.add(new OpDescriptor(4, OpKind.REDUCE, 3, 1000, DataType.FLOAT32, ReduceOp.SUM, 1).fingerprint());
        assertEquals(7, seen.size());
        for (int f : seen) assertTrue(f >= 0, "31 bits");
        // The rank-local sequence number is not agreed on, so it does not count.
        assertEquals(base.fingerprint(), new OpDescriptor(99, OpKind.ALL_REDUCE, 3, 1000, DataType.FLOAT32, ReduceOp.SUM, 0).fingerprint());
    }

    @Test
    void aSendAndItsReceiveAgree() {
        OpDescriptor send = new OpDescriptor(5, OpKind.SEND, 2, 64, DataType.INT8, null, 3);
        OpDescriptor recv = new OpDescriptor(9, OpKind.RECV, 2, 64, DataType.INT8, null, 1);
        assertEquals(send.fingerprint(), recv.fingerprint());
        assertNotEquals(send.fingerprint(), new OpDescriptor(9, OpKind.RECV, 2, 65, DataType.INT8, null, 1).fingerprint());
    }

    @Test
    void descriptorsAndRecordersSurviveTheStore() {
        OpDescriptor d = new OpDescriptor(7, OpKind.BROADCAST, 6, 12, DataType.BFLOAT16, null, 2);
        assertEquals(d, OpDescriptor.decode(d.encode()));
        FlightRecorder rec = new FlightRecorder(2, 4, 8);
        rec.add(allReduce(0, 1));
        rec.add(allReduce(1, 2)).started();
        rec.add(allReduce(2, 3));
        List<FlightRecorder.Published> back = FlightRecorder.decode(rec.encode());
        assertEquals(2, back.size(), "keeps the last N");
        assertEquals(FlightRecorder.State.RUNNING, back.get(0).state());
        assertEquals(2, back.get(1).op().count() - 1);
        assertTrue(rec.dump(4).startsWith("last 2 operations on rank 4:"));
    }

    @Test
    void theReportNamesTheFirstCollectiveThatDiffersAndHowByRank() {
        var ok = List.of(new FlightRecorder.Published(FlightRecorder.State.DONE, allReduce(0, 10)),
                new FlightRecorder.Published(FlightRecorder.State.RUNNING, allReduce(1, 1000)));
        var odd = List.of(new FlightRecorder.Published(FlightRecorder.State.DONE, allReduce(0, 10)),
                new FlightRecorder.Published(FlightRecorder.State.RUNNING, allReduce(1, 999)));
        String text = FailureReport.disagreement(Map.of(0, ok, 1, ok, 2, odd));
        assertEquals("collective #1 differs between ranks: count: ranks 0, 1 have 1000, rank 2 has 999", text);
        assertNull(FailureReport.disagreement(Map.of(0, ok, 1, ok)));
    }

    @Test
    void aMismatchedSendIsReportedWithBothCounts() {
        var sender = List.of(new FlightRecorder.Published(FlightRecorder.State.DONE, new OpDescriptor(1, OpKind.SEND, 0, 10, DataType.INT32, null, 1)));
        var receiver = List.of(new FlightRecorder.Published(FlightRecorder.State.RUNNING, new OpDescriptor(1, OpKind.RECV, 0, 20, DataType.INT32, null, 0)));
        assertEquals("rank 0 sent 10 x int32 (send #0) but rank 1 expected 20 x int32",
                FailureReport.disagreement(Map.of(0, sender, 1, receiver)));
    }
}
