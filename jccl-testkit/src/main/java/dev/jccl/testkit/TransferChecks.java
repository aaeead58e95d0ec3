package dev.jccl.testkit;

import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Data movement, verified byte for byte, including the guard bytes after every destination range:
 * WRITE, READ, SEND/RECV and WRITE_WITH_IMM at 0 B, 1 B, a prime size and (for one-sided ops)
 * 256 MiB; receives consumed in posting order.
 */
public abstract class TransferChecks extends ConformanceCheck {
    static final long PRIME_BYTES = 1_000_003;
    static final long LARGE_BYTES = 256L << 20;
    private static final long LARGE_WAIT_NS = TimeUnit.SECONDS.toNanos(120);
    private static final long SOURCE_SEED = 31;
    private static final long STALE_SEED = 32;

    protected TransferChecks(ProviderTarget target) {
        super(target);
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(longs = {0, 1, PRIME_BYTES, LARGE_BYTES})
    @Timeout(300)
    void writeDeliversEveryByte(long bytes) {
        try (EndpointPair pair = connected()) {
            MemoryRegion src = filledRegion(pair.a(), bytes, SOURCE_SEED);
            MemoryRegion dst = filledRegion(pair.b(), bytes, STALE_SEED);
            post(pair.a().qp(), SendWr.write(1, src.sge(0, bytes), dst.address(), dst.rkey()));
            pair.a().sends().nextSuccess(1, LARGE_WAIT_NS);
            pair.b().recvs().expectNone(0);
            assertLanded("WRITE of " + bytes + " B", dst, bytes);
        }
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(longs = {0, 1, PRIME_BYTES, LARGE_BYTES})
    @Timeout(300)
    void readFetchesEveryByte(long bytes) {
        try (EndpointPair pair = connected()) {
            MemoryRegion remote = filledRegion(pair.b(), bytes, SOURCE_SEED);
            MemoryRegion sink = filledRegion(pair.a(), bytes, STALE_SEED);
            post(pair.a().qp(), SendWr.read(1, sink.sge(0, bytes), remote.address(), remote.rkey()));
            WorkCompletion wc = pair.a().sends().nextSuccess(1, LARGE_WAIT_NS);
            assertEquals(WcOpcode.RDMA_READ, wc.opcode(), wc.toString());
            assertEquals(bytes, wc.byteLen(), "byte length of a READ completion: " + wc);
            assertLanded("READ of " + bytes + " B", sink, bytes);
            Patterns.assertPattern("READ source afterwards", remote.segment(), SOURCE_SEED, 0);
        }
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(longs = {0, 1, PRIME_BYTES, 4L << 20})
    @Timeout(60)
    void sendDeliversEveryByteIntoTheReceive(long bytes) {
        try (EndpointPair pair = connected()) {
            MemoryRegion src = filledRegion(pair.a(), bytes, SOURCE_SEED);
            MemoryRegion dst = filledRegion(pair.b(), bytes, STALE_SEED);
            post(pair.b().qp(), new RecvWr(7, dst.sge(0, dst.length())));
            post(pair.a().qp(), SendWr.send(1, src.sge(0, bytes)));
            WorkCompletion sent = pair.a().sends().nextSuccess(1);
            assertEquals(WcOpcode.SEND, sent.opcode(), sent.toString());
            assertEquals(pair.a().qp().qpn(), sent.qpn(), "qpn of the send completion: " + sent);
            WorkCompletion got = pair.b().recvs().nextSuccess(7);
            assertEquals(WcOpcode.RECV, got.opcode(), got.toString());
            assertEquals(pair.b().qp().qpn(), got.qpn(), "qpn of the receive completion: " + got);
            assertEquals(bytes, got.byteLen(), "RECV byte length: " + got);
            assertLanded("SEND of " + bytes + " B", dst, bytes);
        }
    }

    @ParameterizedTest(name = "{0} bytes")
    @ValueSource(longs = {0, 1, PRIME_BYTES})
    @Timeout(60)
    void writeWithImmDeliversDataAndTheImmediate(long bytes) {
        try (EndpointPair pair = connected()) {
            MemoryRegion src = filledRegion(pair.a(), bytes, SOURCE_SEED);
            MemoryRegion dst = filledRegion(pair.b(), bytes, STALE_SEED);
            int imm = 0xC0FFEE00 ^ (int) bytes;
            post(pair.b().qp(), new RecvWr(7, Sge.EMPTY));
            post(pair.a().qp(), SendWr.writeWithImm(1, src.sge(0, bytes), dst.address(), dst.rkey(), imm));
            WorkCompletion got = pair.b().recvs().nextSuccess(7);
            assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, got.opcode(), got.toString());
            assertTrue(got.hasImm(), "immediate flag: " + got);
            assertEquals(imm, got.imm(), "immediate: " + got);
            assertEquals(bytes, got.byteLen(), "byte length: " + got);
            assertLanded("WRITE_WITH_IMM of " + bytes + " B, seen at its completion", dst, bytes);
            WorkCompletion sent = pair.a().sends().nextSuccess(1);
            assertEquals(WcOpcode.RDMA_WRITE, sent.opcode(), sent.toString());
        }
    }

    @Test
    @Timeout(60)
    void sendsConsumeReceivesInPostingOrder() {
        try (EndpointPair pair = connected()) {
            MemoryRegion src = pair.a().allocateRegion(3 * 4096);
            MemoryRegion dst = filledRegion(pair.b(), 3 * 4096, STALE_SEED);
            for (int i = 0; i < 3; i++) post(pair.b().qp(), new RecvWr(10 + i, dst.sge(4096L * i, 4096)));
            for (int i = 0; i < 3; i++) {
                Patterns.fill(src.segment().asSlice(4096L * i, 4096), 40 + i);
                post(pair.a().qp(), SendWr.send(20 + i, src.sge(4096L * i, 100L * (i + 1))));
            }
            for (int i = 0; i < 3; i++) {
                WorkCompletion got = pair.b().recvs().nextSuccess(10 + i);
                assertEquals(100L * (i + 1), got.byteLen(), got.toString());
                Patterns.assertPattern("message " + i, dst.segment().asSlice(4096L * i, 100L * (i + 1)), 40 + i, 0);
                pair.a().sends().nextSuccess(20 + i);
            }
        }
    }

    /** The first {@code bytes} carry the source pattern; the guard after them is still stale. */
    private static void assertLanded(String what, MemoryRegion dst, long bytes) {
        Patterns.assertPattern(what, dst.segment().asSlice(0, bytes), SOURCE_SEED, 0);
        Patterns.assertPattern(what + ", guard after it", dst.segment().asSlice(bytes), STALE_SEED, bytes);
    }
}
