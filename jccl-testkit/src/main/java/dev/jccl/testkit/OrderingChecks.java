package dev.jccl.testkit;

import dev.jccl.config.Knobs;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * RC ordering, which collectives build on: data before the immediate that announces it, completions
 * in posting order, a long stream of messages without loss or reordering under back-pressure, and
 * several queue pairs between the same two ends kept apart.
 */
public abstract class OrderingChecks extends ConformanceCheck {
    private static final long STALE_SEED = 91;

    protected OrderingChecks(ProviderTarget target) {
        super(target);
    }

    /** Rounds of an unsignaled 4 MiB WRITE then a signaled WRITE_WITH_IMM; the imm proves the data is there. */
    @Test
    @Timeout(120)
    void aWriteIsVisibleWhenTheWriteWithImmBehindItCompletes() {
        long dataBytes = 4L << 20;
        int rounds = 8;
        try (EndpointPair pair = connected()) {
            MemoryRegion src = pair.a().allocateRegion(dataBytes + 8);
            MemoryRegion dst = filledRegion(pair.b(), dataBytes, STALE_SEED);
            for (int r = 0; r < rounds; r++) post(pair.b().qp(), new RecvWr(100 + r, Sge.EMPTY));
            for (int r = 0; r < rounds; r++) {
                Patterns.fill(src.segment().asSlice(0, dataBytes), 50 + r);
                post(pair.a().qp(), SendWr.write(200 + r, src.sge(0, dataBytes), dst.address(), dst.rkey()).unsignaled());
                post(pair.a().qp(), SendWr.writeWithImm(300 + r, src.sge(dataBytes, 8),
                        dst.address() + dataBytes, dst.rkey(), r));
                WorkCompletion got = pair.b().recvs().nextSuccess(100 + r);
                assertEquals(r, got.imm(), got.toString());
                Patterns.assertPattern("round " + r + ": data written before the immediate",
                        dst.segment().asSlice(0, dataBytes), 50 + r, 0);
                pair.a().sends().nextSuccess(300 + r); // the unsignaled WRITE reports nothing
            }
            pair.a().sends().expectNone(0);
        }
    }

    /**
     * List posts ({@code postSend(first, second)}): a zero-byte WRITE_WITH_IMM and a WRITE_WITH_IMM of data,
     * small (copied at post by tcp) and large, posted together; both land and complete in posting order.
     */
    @Test
    @Timeout(120)
    void aListPostLandsAndCompletesInPostingOrder() {
        long[] sizes = {8, 4096, 16 << 10, 0};
        try (EndpointPair pair = connected()) {
            MemoryRegion src = pair.a().allocateRegion(16 << 10);
            MemoryRegion dst = filledRegion(pair.b(), 16 << 10, STALE_SEED);
            for (int r = 0; r < 2 * sizes.length; r++) post(pair.b().qp(), new RecvWr(100 + r, Sge.EMPTY));
            for (int r = 0; r < sizes.length; r++) {
                long bytes = sizes[r];
                Patterns.fill(src.segment().asSlice(0, bytes), 60 + r);
                SendWr first = SendWr.writeWithImm(200 + 2 * r, src.sge(0, 0), dst.address(), dst.rkey(), 2 * r);
                SendWr second = SendWr.writeWithImm(201 + 2 * r, src.sge(0, bytes), dst.address(), dst.rkey(), 2 * r + 1);
                assertEquals(2, pair.a().qp().postSend(first, second), "both requests of the list were posted");
                assertEquals(2 * r, pair.b().recvs().nextSuccess(100 + 2 * r).imm(), "the first request arrives first");
                WorkCompletion got = pair.b().recvs().nextSuccess(101 + 2 * r);
                assertEquals(2 * r + 1, got.imm(), got.toString());
                assertEquals(bytes, got.byteLen(), got.toString());
                Patterns.assertPattern("round " + r + ": " + bytes + " bytes of the second request", dst.segment().asSlice(0, bytes), 60 + r, 0);
                pair.a().sends().nextSuccess(200 + 2 * r);
                pair.a().sends().nextSuccess(201 + 2 * r);
            }
        }
    }

    /** Large and tiny WRITEs interleaved, posted without polling: completions come in posting order. */
    @Test
    @Timeout(120)
    void pipelinedWritesCompleteInPostingOrder() {
        int count = 16;
        long big = 1L << 20;
        try (EndpointPair pair = connected()) {
            MemoryRegion src = pair.a().allocateRegion(count * big);
            Patterns.fill(src.segment(), 92);
            MemoryRegion dst = filledRegion(pair.b(), count * big, STALE_SEED);
            for (int i = 0; i < count; i++) {
                long bytes = i % 2 == 0 ? big : 1;
                post(pair.a().qp(), SendWr.write(i, src.sge(i * big, bytes), dst.address() + i * big, dst.rkey()));
            }
            List<WorkCompletion> done = pair.a().sends().next(count, CompletionReader.DEFAULT_WAIT_NS);
            for (int i = 0; i < count; i++) {
                assertEquals(i, done.get(i).wrId(), "completion order: " + done);
                long bytes = i % 2 == 0 ? big : 1;
                Patterns.assertPattern("write " + i, dst.segment().asSlice(i * big, bytes), 92, i * big);
            }
        }
    }

    /**
     * 3000 SENDs of 8 bytes through a send queue of 8, against a receiver thread re-posting a window
     * of 16 receives: every message arrives once, in order, and completes in order.
     */
    @Test
    @Timeout(120)
    void aStreamOfSendsArrivesCompleteAndInOrderUnderBackPressure() throws Exception {
        try (EndpointPair pair = patientPair()) {
            MemoryRegion dst = MessageStream.prepareReceiver(pair.b(), pair.b().qp());
            CompletableFuture<Void> received = MessageStream.start("stream-receiver",
                    () -> MessageStream.receive(pair.b(), pair.b().qp(), dst, 3000));
            MessageStream.send(pair.a(), pair.a().qp(), 3000);
            received.get(60, TimeUnit.SECONDS);
        }
    }

    /** Both ends send and receive at once on one queue pair: send and receive queues posted from different threads. */
    @Test
    @Timeout(120)
    void streamsInBothDirectionsAtOnceStayIntact() throws Exception {
        try (EndpointPair pair = patientPair()) {
            MemoryRegion atA = MessageStream.prepareReceiver(pair.a(), pair.a().qp());
            MemoryRegion atB = MessageStream.prepareReceiver(pair.b(), pair.b().qp());
            List<CompletableFuture<Void>> all = List.of(
                    MessageStream.start("a-receiver", () -> MessageStream.receive(pair.a(), pair.a().qp(), atA, 2000)),
                    MessageStream.start("b-receiver", () -> MessageStream.receive(pair.b(), pair.b().qp(), atB, 2000)),
                    MessageStream.start("a-sender", () -> MessageStream.send(pair.a(), pair.a().qp(), 2000)),
                    MessageStream.start("b-sender", () -> MessageStream.send(pair.b(), pair.b().qp(), 2000)));
            for (CompletableFuture<Void> f : all) f.get(60, TimeUnit.SECONDS);
        }
    }

    @Test
    @Timeout(30)
    void twoQueuePairsBetweenTheSameEndsStaySeparate() {
        try (EndpointPair pair = connected()) {
            QueuePair a1 = pair.a().qp();
            QueuePair b1 = pair.b().qp();
            QueuePair a2 = pair.a().createQp(16, 16);
            QueuePair b2 = pair.b().createQp(16, 16);
            EndpointPair.connect(a2, b2, EndpointPair.CONNECT_TIMEOUT_NS);
            assertNotEquals(a1.qpn(), a2.qpn(), "queue pair numbers on one context");
            MemoryRegion src = pair.a().allocateRegion(8192);
            Patterns.fill(src.segment(), 93);
            MemoryRegion dst = filledRegion(pair.b(), 8192, STALE_SEED);
            post(b1, new RecvWr(1, dst.sge(0, 4096)));
            post(b2, new RecvWr(2, dst.sge(4096, 4096)));

            post(a2, SendWr.send(20, src.sge(4096, 1000)));
            assertArrival(pair.b().recvs().nextSuccess(2), b2, 1000);
            assertArrival(pair.a().sends().nextSuccess(20), a2, 1000);
            a2.close();
            post(a1, SendWr.send(10, src.sge(0, 500)));
            assertArrival(pair.b().recvs().nextSuccess(1), b1, 500);
            assertArrival(pair.a().sends().nextSuccess(10), a1, 500);
            Patterns.assertPattern("message on qp 1", dst.segment().asSlice(0, 500), 93, 0);
            Patterns.assertPattern("message on qp 2", dst.segment().asSlice(4096, 1000), 93, 4096);
            Patterns.assertPattern("rest of qp 2's receive", dst.segment().asSlice(5096, 3096), STALE_SEED, 5096);
        }
    }

    private static void assertArrival(WorkCompletion wc, QueuePair on, long bytes) {
        assertEquals(on.qpn(), wc.qpn(), "completion reported on the wrong queue pair: " + wc);
        assertEquals(bytes, wc.byteLen(), wc.toString());
    }

    /** A long RNR timeout, so a SEND that overtakes its re-posted receive waits instead of failing. */
    private EndpointPair patientPair() {
        ProviderTarget patient = target.withKnobs(Map.of(Knobs.RNR_TIMEOUT_NS.name(), "10s"));
        return EndpointPair.connected(patient, EndpointPair.Options.DEFAULT.withDepths(8, MessageStream.RECEIVE_WINDOW));
    }
}
