package dev.jccl.testkit;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcStatus;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * RDMA requests the target must refuse: unknown rkey and ranges outside the region. The requester
 * gets REM_ACCESS_ERR, its queue pair goes to ERR and flushes what follows, and no byte of the
 * target (nor of the guard pages around it) or of the local sink changes.
 */
public abstract class RemoteAccessChecks extends ConformanceCheck {
    private static final long REGION_BYTES = 4096;
    private static final long TARGET_SEED = 11;
    private static final long SOURCE_SEED = 12;
    private static final long SINK_SEED = 13;

    /** A bad remote range: where it starts relative to the region, how long it is, and which rkey. */
    public enum BadRemote {
        BAD_RKEY,
        ONE_BYTE_PAST_END,
        ONE_BYTE_BEFORE_START,
        ONE_BYTE_LONGER_THAN_REGION,
        ONE_TIB_PAST_END,
        WRAPPING_ADDRESS;

        long address(MemoryRegion target) {
            return switch (this) {
                case BAD_RKEY, ONE_BYTE_LONGER_THAN_REGION -> target.address();
                case ONE_BYTE_PAST_END -> target.address() + target.length() - 63;
                case ONE_BYTE_BEFORE_START -> target.address() - 1;
                case ONE_TIB_PAST_END -> target.address() + (1L << 40);
                case WRAPPING_ADDRESS -> -16L; // address + length wraps past 2^64 to a small number
            };
        }

        long length(MemoryRegion target) {
            return this == ONE_BYTE_LONGER_THAN_REGION ? target.length() + 1 : 64;
        }

        int rkey(MemoryRegion target) {
            return this == BAD_RKEY ? target.rkey() ^ 0x5A5A5A5A : target.rkey();
        }
    }

    protected RemoteAccessChecks(ProviderTarget target) {
        super(target);
    }

    @ParameterizedTest
    @EnumSource(BadRemote.class)
    @Timeout(30)
    void writeOutsideTheRemoteRegionIsRefused(BadRemote bad) {
        refused(Opcode.RDMA_WRITE, bad);
    }

    @ParameterizedTest
    @EnumSource(BadRemote.class)
    @Timeout(30)
    void readOutsideTheRemoteRegionIsRefused(BadRemote bad) {
        refused(Opcode.RDMA_READ, bad);
    }

    /** A region registered without REMOTE_WRITE (or REMOTE_READ) refuses that operation. */
    @ParameterizedTest
    @EnumSource(value = Opcode.class, names = {"RDMA_WRITE", "RDMA_READ"})
    @Timeout(30)
    void anOperationTheRegionGrantsNoRightForIsRefused(Opcode op) {
        try (EndpointPair pair = connected()) {
            Access other = op == Opcode.RDMA_WRITE ? Access.REMOTE_READ : Access.REMOTE_WRITE;
            MemorySegment targetBytes = pair.b().pd().allocate(REGION_BYTES);
            Patterns.fill(targetBytes, TARGET_SEED);
            MemoryRegion target = pair.b().pd().register(targetBytes, Set.of(Access.LOCAL_WRITE, other));
            MemoryRegion local = pair.a().allocateRegion(REGION_BYTES);
            Patterns.fill(local.segment(), SINK_SEED);
            post(pair.a().qp(), new SendWr(1, op, local.sge(0, 64), target.address(), target.rkey(), 0, true));
            pair.a().sends().nextWithStatus(1, WcStatus.REM_ACCESS_ERR);
            Patterns.assertPattern(op + " without the right: target", targetBytes, TARGET_SEED, 0);
            Patterns.assertPattern(op + " without the right: local memory", local.segment(), SINK_SEED, 0);
        }
    }

    /** Unsignaled only suppresses successes: an error completion is always reported. */
    @Test
    @Timeout(30)
    void anUnsignaledWriteThatFailsStillReportsItsError() {
        try (EndpointPair pair = connected()) {
            MemoryRegion target = pair.b().allocateRegion(REGION_BYTES);
            Patterns.fill(target.segment(), TARGET_SEED);
            MemoryRegion local = pair.a().allocateRegion(REGION_BYTES);
            SendWr bad = SendWr.write(1, local.sge(0, 64), target.address(), target.rkey() ^ 0x5A5A5A5A).unsignaled();
            post(pair.a().qp(), bad);
            pair.a().sends().nextWithStatus(1, WcStatus.REM_ACCESS_ERR);
            Patterns.assertPattern("target of an unsignaled bad write", target.segment(), TARGET_SEED, 0);
        }
    }

    private void refused(Opcode op, BadRemote bad) {
        try (EndpointPair pair = connected()) {
            // The target region is the middle of three pages, so a stray byte on either side shows.
            MemorySegment targetPages = pair.b().pd().allocate(3 * REGION_BYTES);
            Patterns.fill(targetPages, TARGET_SEED);
            MemoryRegion target = pair.b().register(targetPages.asSlice(REGION_BYTES, REGION_BYTES));
            MemoryRegion local = pair.a().allocateRegion(2 * REGION_BYTES);
            MemorySegment localBytes = local.segment();
            Patterns.fill(localBytes, op == Opcode.RDMA_READ ? SINK_SEED : SOURCE_SEED);

            SendWr wr = new SendWr(1, op, local.sge(0, bad.length(target)), bad.address(target), bad.rkey(target), 0, true);
            post(pair.a().qp(), wr);
            pair.a().sends().nextWithStatus(1, WcStatus.REM_ACCESS_ERR);
            awaitState(pair.a().qp(), QpState.ERR);
            Patterns.assertPattern(op + " " + bad + ": target pages", targetPages, TARGET_SEED, 0);
            if (op == Opcode.RDMA_READ) {
                Patterns.assertPattern("READ " + bad + ": local sink", localBytes, SINK_SEED, 0);
            }

            // A valid request after the error is flushed, not executed.
            post(pair.a().qp(), SendWr.write(2, local.sge(0, 64), target.address(), target.rkey()));
            pair.a().sends().nextWithStatus(2, WcStatus.WR_FLUSH_ERR);
            post(pair.a().qp(), new RecvWr(3, local.sge(0, 64)));
            pair.a().recvs().nextWithStatus(3, WcStatus.WR_FLUSH_ERR);
            Patterns.assertPattern(op + " " + bad + ": target pages after a flushed write", targetPages, TARGET_SEED, 0);
        }
    }
}
