package dev.jccl.verbs.shm;

import dev.jccl.testkit.PairBed;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.jccl.testkit.PairBed.shared;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sender thread and a receiver thread stream WRITE_WITH_IMMs: each writes its sequence number into
 * a slot of the receiver's region and carries it as the immediate. The receiver must see them in
 * order and must find the payload in place when the completion arrives (release/acquire on the
 * notification ring).
 */
@Tag("unit")
class ShmConcurrencyTest {
    private static final int MESSAGES = 20_000;
    private static final int SLOTS = 16;
    private static final int DEPTH = 8;

    @Test
    @Timeout(60)
    void streamOfWritesWithImmArrivesInOrderWithItsPayload() throws Exception {
        try (PairBed bed = PairBed.connected("shm", Map.of("JCCL_RNR_TIMEOUT", "20s"), DEPTH)) {
            MemoryRegion slots = shared(bed.pdB, SLOTS * 8L, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            // One source word per message: a write waiting for a receive reads its source when it runs.
            MemoryRegion src = shared(bed.pdA, MESSAGES * 8L, Access.LOCAL_WRITE);
            for (int i = 0; i < DEPTH; i++) assertTrue(bed.qpB.postRecv(new RecvWr(i, Sge.EMPTY)));

            CompletableFuture<String> receiver = CompletableFuture.supplyAsync(() -> {
                WorkCompletion[] wc = WorkCompletion.array(DEPTH);
                int expected = 0;
                long deadline = System.nanoTime() + 50_000_000_000L;
                while (expected < MESSAGES) {
                    if (System.nanoTime() > deadline) return "receiver timed out at " + expected;
                    int n = bed.cqB.await(wc, 1_000_000_000L);
                    for (int k = 0; k < n; k++) {
                        if (!wc[k].ok()) return "receive failed: " + wc[k];
                        if (wc[k].imm() != expected) return "imm " + wc[k].imm() + " arrived, expected " + expected;
                        long payload = slots.segment().get(ValueLayout.JAVA_LONG, (expected % SLOTS) * 8L);
                        if (payload != expected) return "slot held " + payload + " when imm " + expected + " arrived";
                        expected++;
                        if (!bed.qpB.postRecv(new RecvWr(expected, Sge.EMPTY))) return "receive queue full";
                    }
                }
                return "ok";
            });

            WorkCompletion[] wc = WorkCompletion.array(4);
            // Slot i % SLOTS is reused only after the receiver checked message i: message i + SLOTS
            // needs a receive the receiver posts after handling message i + SLOTS - DEPTH > i.
            for (int i = 0; i < MESSAGES; i++) {
                long slot = (i % SLOTS) * 8L;
                src.segment().set(ValueLayout.JAVA_LONG, i * 8L, i);
                SendWr wr = SendWr.writeWithImm(i, src.sge(i * 8L, 8), slots.address() + slot, slots.rkey(), i).unsignaled();
                while (!bed.qpA.postSend(wr)) { // back-pressure: make progress, then retry
                    int n = bed.cqA.poll(wc);
                    assertEquals(0, n, () -> "unexpected sender completion " + wc[0]);
                    Thread.onSpinWait();
                }
            }
            assertEquals("ok", receiver.get(55, TimeUnit.SECONDS));
            PairBed.assertNoCompletion(bed.cqA);
        }
    }
}
