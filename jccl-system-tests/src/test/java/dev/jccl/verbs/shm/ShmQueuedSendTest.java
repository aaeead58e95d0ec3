package dev.jccl.verbs.shm;

import dev.jccl.testkit.PairBed;
import dev.jccl.util.Segments;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A send posted while an earlier one still waits (here: the peer is not yet RTR) must copy from its
 * own region: running the waiting request first must not leave the later one reading the earlier
 * one's memory.
 */
@Tag("unit")
class ShmQueuedSendTest {
    @Test
    @Timeout(30)
    void aSendPostedBehindAWaitingOneCarriesItsOwnData() throws Exception {
        try (PairBed bed = PairBed.open("shm", Map.of(), 8)) {
            long bytes = 4096;
            MemoryRegion first = PairBed.shared(bed.pdA, bytes);
            MemoryRegion second = PairBed.shared(bed.pdA, bytes);
            Segments.fillPattern(first.segment(), 1);
            Segments.fillPattern(second.segment(), 2);
            MemoryRegion target = PairBed.shared(bed.pdB, 2 * bytes, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            bed.qpA.modifyToInit();
            bed.qpB.modifyToInit();
            bed.qpA.modifyToRtr(bed.qpB.localInfo());
            bed.qpA.modifyToRts();
            for (int i = 0; i < 2; i++) assertTrue(bed.qpB.postRecv(new RecvWr(i, Sge.EMPTY)));
            // The peer is only in INIT: this one waits in the send queue.
            assertTrue(bed.qpA.postSend(SendWr.writeWithImm(1, first.sge(0, bytes), target.address(), target.rkey(), 1)));
            bed.qpB.modifyToRtr(bed.qpA.localInfo());
            bed.qpB.modifyToRts();
            // Posting the next one runs the waiting one first, then this one.
            assertTrue(bed.qpA.postSend(SendWr.writeWithImm(2, second.sge(0, bytes), target.address() + bytes, target.rkey(), 2)));
            List<WorkCompletion> sent = PairBed.awaitAll(bed.cqA, 2, PairBed.AWAIT_NS);
            assertEquals(2, sent.size());
            List<WorkCompletion> received = PairBed.awaitAll(bed.cqB, 2, PairBed.AWAIT_NS);
            assertEquals(2, received.size());
            assertEquals(-1, Segments.firstPatternMismatch(target.segment().asSlice(0, bytes), 1));
            assertEquals(-1, Segments.firstPatternMismatch(target.segment().asSlice(bytes, bytes), 2),
                    "the second write copied another region's bytes");
        }
    }
}
