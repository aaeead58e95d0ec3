package dev.jccl.testkit;

import dev.jccl.config.Knobs;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Back-pressure: a full send or receive queue answers {@code false}, changes nothing, and takes
 * work again once completions were polled.
 *
 * <p>The send queue is kept full deterministically with SENDs the peer has no receives for yet
 * (a long RNR timeout keeps them outstanding), rather than racing a fast provider with WRITEs.
 */
public abstract class QueueDepthChecks extends ConformanceCheck {
    private static final int DEPTH = 4;

    protected QueueDepthChecks(ProviderTarget target) {
        super(target);
    }

    @Test
    @Timeout(30)
    void aFullSendQueueReturnsFalseUntilCompletionsArePolled() {
        ProviderTarget patient = target.withKnobs(Map.of(Knobs.RNR_TIMEOUT_NS.name(), "10s"));
        try (EndpointPair pair = EndpointPair.connected(patient, EndpointPair.Options.DEFAULT.withDepths(DEPTH, 2 * DEPTH))) {
            QueuePair a = pair.a().qp();
            MemoryRegion src = pair.a().allocateRegion(64L * (DEPTH + 1));
            MemoryRegion dst = pair.b().allocateRegion(64L * (DEPTH + 1));
            for (int i = 0; i <= DEPTH; i++) Patterns.fill(src.segment().asSlice(64L * i, 64), 80 + i);
            for (int i = 0; i < DEPTH; i++) assertTrue(a.postSend(SendWr.send(i, src.sge(64L * i, 64))), "send " + i);
            SendWr overflow = SendWr.send(DEPTH, src.sge(64L * DEPTH, 64));
            assertFalse(a.postSend(overflow), "send number " + (DEPTH + 1) + " on a send queue of depth " + DEPTH);
            assertEquals(QpState.RTS, a.state());

            for (int i = 0; i < DEPTH; i++) post(pair.b().qp(), new RecvWr(100 + i, dst.sge(64L * i, 64)));
            List<WorkCompletion> sent = pair.a().sends().next(DEPTH, CompletionReader.DEFAULT_WAIT_NS);
            for (int i = 0; i < DEPTH; i++) assertEquals(i, sent.get(i).wrId(), "send completions: " + sent);
            assertTrue(a.postSend(overflow), "the refused send, after polling");
            post(pair.b().qp(), new RecvWr(100 + DEPTH, dst.sge(64L * DEPTH, 64)));
            pair.a().sends().nextSuccess(DEPTH);

            List<WorkCompletion> received = pair.b().recvs().next(DEPTH + 1, CompletionReader.DEFAULT_WAIT_NS);
            for (int i = 0; i <= DEPTH; i++) {
                assertEquals(100 + i, received.get(i).wrId(), "receive completions: " + received);
                Patterns.assertPattern("message " + i, dst.segment().asSlice(64L * i, 64), 80 + i, 0);
            }
            pair.b().recvs().expectNone(0);
        }
    }

    /** Sends still waiting for receives when the queue pair goes to ERR complete with WR_FLUSH_ERR, in order. */
    @Test
    @Timeout(30)
    void outstandingSendsAreFlushedWhenTheQueuePairGoesToError() {
        ProviderTarget patient = target.withKnobs(Map.of(Knobs.RNR_TIMEOUT_NS.name(), "10s"));
        try (EndpointPair pair = EndpointPair.connected(patient, EndpointPair.Options.DEFAULT)) {
            MemoryRegion src = pair.a().allocateRegion(64);
            for (int i = 0; i < 3; i++) post(pair.a().qp(), SendWr.send(i, src.sge(0, 64)));
            pair.a().qp().modifyToError();
            List<WorkCompletion> flushed = pair.a().sends().next(3, CompletionReader.DEFAULT_WAIT_NS);
            for (int i = 0; i < 3; i++) {
                assertEquals(i, flushed.get(i).wrId(), "flush order: " + flushed);
                assertEquals(WcStatus.WR_FLUSH_ERR, flushed.get(i).status(), flushed.get(i).toString());
            }
        }
    }

    @Test
    @Timeout(30)
    void aFullReceiveQueueReturnsFalseUntilCompletionsArePolled() {
        try (EndpointPair pair = connected(EndpointPair.Options.DEFAULT.withDepths(2 * DEPTH, DEPTH))) {
            QueuePair b = pair.b().qp();
            MemoryRegion dst = pair.b().allocateRegion(64L * (DEPTH + 1));
            MemoryRegion src = pair.a().allocateRegion(64);
            for (int i = 0; i < DEPTH; i++) assertTrue(b.postRecv(new RecvWr(i, dst.sge(64L * i, 64))), "receive " + i);
            RecvWr overflow = new RecvWr(DEPTH, dst.sge(64L * DEPTH, 64));
            assertFalse(b.postRecv(overflow), "receive number " + (DEPTH + 1) + " on a receive queue of depth " + DEPTH);
            assertEquals(QpState.RTS, b.state());

            post(pair.a().qp(), SendWr.send(50, src.sge(0, 64)));
            pair.b().recvs().nextSuccess(0);
            assertTrue(b.postRecv(overflow), "the refused receive, after polling");
            for (int i = 1; i <= DEPTH; i++) post(pair.a().qp(), SendWr.send(50 + i, src.sge(0, 64)));
            List<WorkCompletion> received = pair.b().recvs().next(DEPTH, CompletionReader.DEFAULT_WAIT_NS);
            for (int i = 1; i <= DEPTH; i++) assertEquals(i, received.get(i - 1).wrId(), "receives: " + received);
            pair.a().sends().next(DEPTH + 1, CompletionReader.DEFAULT_WAIT_NS)
                    .forEach(wc -> assertTrue(wc.ok(), wc.toString()));
            pair.b().recvs().expectNone(0);
        }
    }
}
