package dev.jccl.bootstrap;

import dev.jccl.fuzz.Allocations;
import dev.jccl.fuzz.FuzzCount;
import dev.jccl.fuzz.Mutator;
import dev.jccl.fuzz.Tries;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

import static dev.jccl.bootstrap.StoreFrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The store's request decoder against malformed bodies and length prefixes: every input is either a
 * request whose fields are within their limits, or a {@link MalformedFrameException}; never another
 * exception, and never an allocation the bytes on hand do not justify.
 */
@Tag("unit")
class StoreDecoderProperties {
    private static final String BODIES = "store-decoder (request bodies)";
    private static final String PREFIXES = "store-decoder (length prefixes)";
    private static final int BATCH = 30;
    private static final int TRIES = 1000;

    @Test
    void everyBodyIsARequestWithinLimitsOrRefused() {
        Tries.run(TRIES, this::everyBodyIsARequestWithinLimitsOrRefused);
    }

    /** One try of {@link #everyBodyIsARequestWithinLimitsOrRefused()}. */
    private void everyBodyIsARequestWithinLimitsOrRefused(long seed) {
        Mutator m = new Mutator(new SplittableRandom(seed), ByteOrder.BIG_ENDIAN);
        for (int i = 0; i < BATCH; i++) {
            byte[] good = StoreFrames.request(m.random(), i, false);
            byte[] body = m.random().nextInt(8) == 0 ? good : m.mutate(good);
            FuzzCount.record(BODIES, !parsesWithinLimits(body));
        }
    }

    @Test
    void aLengthPrefixIsNeverBelievedBeyondTheBytesThatFollow() {
        Tries.run(TRIES, this::aLengthPrefixIsNeverBelievedBeyondTheBytesThatFollow);
    }

    /** One try of {@link #aLengthPrefixIsNeverBelievedBeyondTheBytesThatFollow()}. */
    private void aLengthPrefixIsNeverBelievedBeyondTheBytesThatFollow(long seed) throws Exception {
        Mutator m = new Mutator(new SplittableRandom(seed), ByteOrder.BIG_ENDIAN);
        for (int i = 0; i < BATCH; i++) {
            byte[] body = m.noise(m.random().nextInt(64));
            ByteBuffer wire = ByteBuffer.allocate(4 + body.length);
            int claimed = m.random().nextBoolean() ? (int) m.extreme() : body.length + m.random().nextInt(-3, 4);
            wire.putInt(claimed).put(body);
            byte[] bytes = m.random().nextInt(4) == 0 ? m.mutate(wire.array()) : wire.array();
            FuzzCount.record(PREFIXES, !readsOneFrameCheaply(bytes));
        }
    }

    /** Regression: a key count the frame cannot hold is refused before a list of that size is made. */
    @Test
    void anAbsurdKeyCountAllocatesNothing() {
        byte[] body = ByteBuffer.allocate(21).put(OP_WAIT).putLong(1).putInt(1 << 30).putLong(0).array();
        assertTrue(!parsesWithinLimits(body));
    }

    @AfterAll
    static void report() {
        FuzzCount.report(BODIES);
        FuzzCount.report(PREFIXES);
    }

    /** True when parsed (and then checks the request), false when refused as malformed. */
    static boolean parsesWithinLimits(byte[] body) {
        long before = Allocations.ofCurrentThread();
        StoreRequest q;
        try {
            q = StoreRequest.parse(body);
        } catch (MalformedFrameException refused) {
            assertTrue(refused.getMessage() != null && !refused.getMessage().isBlank());
            return false;
        } catch (RuntimeException | Error e) {
            throw new AssertionError("decoding " + body.length + " bytes threw instead of refusing", e);
        }
        long allocated = Allocations.ofCurrentThread() - before;
        assertTrue(allocated < 64 * 1024 + 4L * body.length, allocated + " bytes allocated to decode " + body.length);
        assertTrue(q.op() >= OP_SET && q.op() <= OP_DELETE, "opcode " + q.op());
        if (q.key() != null) assertTrue(within(q.key().getBytes(StandardCharsets.UTF_8).length, 1, StoreLimits.MAX_KEY_BYTES));
        assertTrue(q.keys().size() <= StoreLimits.MAX_WAIT_KEYS);
        if (q.value() != null) assertTrue(q.value().length <= StoreLimits.MAX_VALUE_BYTES);
        if (q.op() == OP_SET || q.op() == OP_CAS) assertTrue(q.value() != null, "SET/CAS without a value was taken");
        if (q.op() == OP_GET || q.op() == OP_WAIT) assertTrue(q.timeoutNs() >= 0);
        return true;
    }

    private static boolean readsOneFrameCheaply(byte[] wire) throws Exception {
        long before = Allocations.ofCurrentThread();
        try {
            byte[] body = StoreCodec.readFrame(new DataInputStream(new ByteArrayInputStream(wire)));
            if (body == null) {
                assertEquals(0, wire.length, "end of stream reported with bytes left");
                return true;
            }
            int claimed = ByteBuffer.wrap(wire).getInt();
            assertEquals(claimed, body.length, "the body is the length the prefix claims");
            assertTrue(claimed >= MIN_BODY_BYTES && claimed <= MAX_BODY_BYTES, "length " + claimed + " was taken");
            return true;
        } catch (MalformedFrameException | EOFException refused) {
            return false;
        } catch (RuntimeException | Error e) {
            fail("reading a frame from " + wire.length + " bytes threw instead of refusing", e);
            return false;
        } finally {
            long allocated = Allocations.ofCurrentThread() - before;
            // The JDK reads a body in buffers of at most 16 KiB as bytes arrive: a constant, whatever the prefix claims.
            assertTrue(allocated < 256 * 1024 + 4L * wire.length, allocated + " bytes allocated to read " + wire.length + " bytes");
        }
    }

    private static boolean within(int v, int lo, int hi) {
        return v >= lo && v <= hi;
    }
}
