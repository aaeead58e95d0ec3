package dev.jccl.testkit;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Local memory a work request may not use: an unknown lkey or an sge outside its region is a
 * contract breach, refused at post time with nothing sent and the queue pair still usable.
 */
public abstract class LocalProtectionChecks extends ConformanceCheck {
    private static final long STALE_SEED = 71;
    private static final long SOURCE_SEED = 72;

    /** Ways an sge can fail to name registered memory. */
    public enum BadSge {
        UNKNOWN_LKEY, PAST_REGION_END, BEFORE_REGION_START;

        Sge of(MemoryRegion r) {
            return switch (this) {
                case UNKNOWN_LKEY -> new Sge(r.address(), 64, r.lkey() ^ 0x3C3C3C3C);
                case PAST_REGION_END -> new Sge(r.address() + r.length() - 32, 64, r.lkey());
                case BEFORE_REGION_START -> new Sge(r.address() - 1, 64, r.lkey());
            };
        }
    }

    protected LocalProtectionChecks(ProviderTarget target) {
        super(target);
    }

    @ParameterizedTest
    @EnumSource(BadSge.class)
    @Timeout(30)
    void aBadSgeIsRefusedAtPostTimeForEverySendOpcode(BadSge bad) {
        try (EndpointPair pair = connected()) {
            QueuePair a = pair.a().qp();
            MemoryRegion local = pair.a().allocateRegion(4096);
            Patterns.fill(local.segment(), SOURCE_SEED);
            MemoryRegion remote = pair.b().allocateRegion(4096);
            Patterns.fill(remote.segment(), STALE_SEED);
            post(pair.b().qp(), new RecvWr(9, remote.sge(0, 4096)));
            for (Opcode op : Opcode.values()) {
                SendWr wr = new SendWr(1, op, bad.of(local), remote.address(), remote.rkey(), 0, true);
                assertThrows(VerbsException.class, () -> a.postSend(wr), op + " with " + bad);
                assertEquals(QpState.RTS, a.state(), "state after a refused " + op);
            }
            pair.a().sends().expectNone(0);
            pair.b().recvs().expectNone(0);
            Patterns.assertPattern("peer memory after refused posts", remote.segment(), STALE_SEED, 0);
            // Nothing went out: the receive posted above is still there for the first valid SEND.
            post(a, SendWr.send(2, local.sge(0, 64)));
            pair.a().sends().nextSuccess(2);
            assertEquals(64, pair.b().recvs().nextSuccess(9).byteLen());
        }
    }

    @ParameterizedTest
    @EnumSource(BadSge.class)
    @Timeout(30)
    void aBadSgeIsRefusedAtPostTimeForAReceive(BadSge bad) {
        try (EndpointPair pair = connected()) {
            QueuePair b = pair.b().qp();
            MemoryRegion dst = pair.b().allocateRegion(4096);
            assertThrows(VerbsException.class, () -> b.postRecv(new RecvWr(1, bad.of(dst))), "receive with " + bad);
            assertEquals(QpState.RTS, b.state());
            post(b, new RecvWr(2, dst.sge(0, 4096)));
            MemoryRegion src = pair.a().allocateRegion(64);
            post(pair.a().qp(), SendWr.send(3, src.sge(0, 64)));
            pair.a().sends().nextSuccess(3);
            pair.b().recvs().nextSuccess(2); // not the refused wr_id 1
        }
    }

    /**
     * A READ into memory registered without LOCAL_WRITE: either refused at post time or completed
     * with LOC_PROT_ERR; in both cases the memory stays as it was.
     */
    @Test
    @Timeout(30)
    void aReadIntoMemoryWithoutLocalWriteChangesNothing() {
        try (EndpointPair pair = connected()) {
            MemoryRegion readOnly = pair.a().pd().register(pair.a().pd().allocate(4096), Set.of(Access.REMOTE_READ));
            Patterns.fill(readOnly.segment(), STALE_SEED);
            MemoryRegion remote = pair.b().allocateRegion(4096);
            Patterns.fill(remote.segment(), SOURCE_SEED);
            SendWr read = SendWr.read(1, readOnly.sge(0, 4096), remote.address(), remote.rkey());
            boolean refusedAtPost = false;
            try {
                post(pair.a().qp(), read);
            } catch (VerbsException expected) {
                refusedAtPost = true;
            }
            if (!refusedAtPost) {
                WorkCompletion wc = pair.a().sends().next();
                assertEquals(WcStatus.LOC_PROT_ERR, wc.status(), "READ into memory without LOCAL_WRITE: " + wc);
            }
            Patterns.assertPattern("memory without LOCAL_WRITE", readOnly.segment(), STALE_SEED, 0);
        }
    }
}
