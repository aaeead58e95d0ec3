package dev.jccl.testkit;

import dev.jccl.config.Knobs;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Two-sided traffic the receiver cannot take: no receive posted (RNR), or a receive too small
 * (LOC_LEN_ERR) — and the legal case of a receive posted late but within the RNR timeout.
 */
public abstract class ReceiverErrorChecks extends ConformanceCheck {
    protected ReceiverErrorChecks(ProviderTarget target) {
        super(target);
    }

    @Test
    @Timeout(30)
    void aSendWithNoReceivePostedEndsInRnrRetryExceeded() {
        try (EndpointPair pair = connected()) {
            MemoryRegion src = pair.a().allocateRegion(64);
            post(pair.a().qp(), SendWr.send(1, src.sge(0, 64)));
            pair.a().sends().nextWithStatus(1, WcStatus.RNR_RETRY_EXC);
            awaitState(pair.a().qp(), QpState.ERR);
        }
    }

    @Test
    @Timeout(30)
    void aWriteWithImmWithNoReceivePostedEndsInRnrRetryExceeded() {
        try (EndpointPair pair = connected()) {
            MemoryRegion src = pair.a().allocateRegion(64);
            MemoryRegion dst = pair.b().allocateRegion(64);
            post(pair.a().qp(), SendWr.writeWithImm(1, src.sge(0, 64), dst.address(), dst.rkey(), 5));
            pair.a().sends().nextWithStatus(1, WcStatus.RNR_RETRY_EXC);
            awaitState(pair.a().qp(), QpState.ERR);
        }
    }

    /** JCCL_RNR_TIMEOUT is how long a SEND waits for its receive; one posted 200 ms late is in time. */
    @Test
    @Timeout(30)
    void aSendWaitsForAReceivePostedWithinTheRnrTimeout() throws InterruptedException {
        ProviderTarget patient = target.withKnobs(Map.of(Knobs.RNR_TIMEOUT_NS.name(), "10s"));
        try (EndpointPair pair = EndpointPair.connected(patient, EndpointPair.Options.DEFAULT)) {
            MemoryRegion src = pair.a().allocateRegion(64);
            MemoryRegion dst = pair.b().allocateRegion(64);
            Patterns.fill(src.segment(), 61);
            post(pair.a().qp(), SendWr.send(1, src.sge(0, 64)));
            Thread.sleep(200);
            post(pair.b().qp(), new RecvWr(2, dst.sge(0, 64)));
            pair.b().recvs().nextSuccess(2);
            pair.a().sends().nextSuccess(1);
            Patterns.assertPattern("late-received SEND", dst.segment(), 61, 0);
        }
    }

    @Test
    @Timeout(30)
    void aSendLargerThanTheReceiveIsALengthErrorAtTheReceiver() {
        try (EndpointPair pair = connected()) {
            MemoryRegion src = pair.a().allocateRegion(4096);
            Patterns.fill(src.segment(), 62);
            MemoryRegion dst = pair.b().allocateRegion(100 + GUARD_BYTES);
            Patterns.fill(dst.segment(), 63);
            post(pair.b().qp(), new RecvWr(2, dst.sge(0, 100)));
            post(pair.a().qp(), SendWr.send(1, src.sge(0, 101)));
            pair.b().recvs().nextWithStatus(2, WcStatus.LOC_LEN_ERR);
            WorkCompletion sender = pair.a().sends().next();
            assertEquals(1, sender.wrId(), sender.toString());
            assertNotEquals(WcStatus.SUCCESS, sender.status(), "the sender of a message nobody took: " + sender);
            Patterns.assertPattern("bytes after the too-small receive", dst.segment().asSlice(100), 63, 100);
        }
    }
}
