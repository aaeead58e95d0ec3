package dev.jccl.verbs.tcp;

import dev.jccl.fuzz.Allocations;
import dev.jccl.fuzz.FuzzCount;
import dev.jccl.fuzz.Mutator;
import dev.jccl.fuzz.Tries;
import dev.jccl.verbs.base.LocalRegion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.SplittableRandom;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * An authenticated peer's frames, broken in every field, fed through the real reading path of a tcp
 * queue pair (InboundStream, Requester, Responder, region table, receives) in pieces of random size:
 * the stream ends with a refusal or an end of stream and nothing else, no guard byte around a region,
 * receive buffer or READ sink changes, no length is believed into an allocation, frames after the
 * failure are ignored, and a fresh queue pair half then takes a good WRITE.
 */
@Tag("unit")
class InboundStreamProperties {
    private static final String TARGET = "tcp-inbound (frames from an authenticated peer)";
    private static final String AFTER_CLOSE = "tcp-inbound (frames after the failure)";
    private static final int REFUSED = 0, ENDED = 1;
    private static final int TRIES = 1000;
    private static ServerSocketChannel listener;
    private static SocketChannel replies;
    private static SocketChannel drained;
    private static OutboundLanes lanes;
    private static volatile IOException laneFailure;
    private static String lastRefusal;

    @BeforeAll
    static void openReplyLane() throws IOException {
        listener = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        replies = SocketChannel.open(listener.getLocalAddress());
        drained = listener.accept();
        Thread.ofPlatform().daemon().name("fuzz-reply-drain").start(() -> {
            ByteBuffer sink = ByteBuffer.allocateDirect(1 << 20);
            try {
                while (drained.read(sink.clear()) >= 0) {
                    // replies (ACK, NAK, READ_RESPONSE) are not what is under test here
                }
            } catch (IOException closed) {
                // the class is over (@AfterAll closed the lane)
            }
        });
        lanes = new OutboundLanes(List.of(new OutboundLane(0, replies, false, "fuzz drain", 10_000_000_000L, 10_000_000_000L, (l, e) -> laneFailure = e,
                "fuzz-reply-lane")));
    }

    @AfterAll
    static void close() throws IOException {
        lanes.close();
        drained.close();
        listener.close();
        FuzzCount.report(TARGET);
        FuzzCount.report(AFTER_CLOSE);
    }

    @Test
    void hostileFramesAreRefusedAndNeverReachPastARegion() {
        Tries.run(TRIES, this::hostileFramesAreRefusedAndNeverReachPastARegion);
    }

    /** One try of {@link #hostileFramesAreRefusedAndNeverReachPastARegion()}. */
    private void hostileFramesAreRefusedAndNeverReachPastARegion(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        FuzzBench bench = new FuzzBench(r, lanes);
        List<byte[]> frames = TcpFrames.plausible(r, bench);
        boolean corrupt = r.nextInt(6) != 0;
        byte[] wire = corrupt ? TcpFrames.corrupt(new Mutator(r, ORDER), frames) : TcpFrames.concat(frames);
        int outcome = pumpAll(bench, wire, r);
        for (int i = 0; i < frames.size(); i++) FuzzCount.record(TARGET, outcome == REFUSED && i == 0);
        assertTrue(bench.guardsIntact(), "a write landed outside a registered region");
        assertTrue(corrupt || outcome == ENDED || bench.broken != null, "a plausible stream was refused: " + lastRefusal);

        bench.fail(); // the queue pair is in ERR now; the peer keeps sending
        List<byte[]> late = TcpFrames.plausible(r, bench);
        int lateOutcome = pumpAll(bench, TcpFrames.concat(late), r);
        for (int i = 0; i < late.size(); i++) FuzzCount.record(AFTER_CLOSE, lateOutcome == REFUSED && i == 0);
        assertTrue(bench.guardsIntact(), "a frame after the failure reached memory");
        assertEquals(null, laneFailure, "the reply lane failed");
        aGoodWriteStillLands(r);
    }

    /** Regression: a SEND naming the second posted receive while the first is still open. */
    @Test
    void aSendThatSkipsAReceiveIsRefused() {
        SplittableRandom r = new SplittableRandom(1);
        FuzzBench bench = new FuzzBench(r, lanes);
        while (bench.receiveBuffers.size() < 2) bench = new FuzzBench(r, lanes);
        byte[] send = TcpFrames.frame(r, TYPE_SEND, (byte) 0, 0, FuzzBench.PEER_PSN, 0, 0, 0, 0, 1, NO_ACK);
        assertEquals(REFUSED, pumpAll(bench, send, r), "delivered out of receive order");
        assertTrue(bench.guardsIntact());
    }

    /** Regression: two SENDs naming one receive, the later one first; the second delivery found no receive. */
    @Test
    void twoSendsOnOneReceiveAreRefused() {
        SplittableRandom r = new SplittableRandom(2);
        FuzzBench bench = new FuzzBench(r, lanes);
        while (bench.receiveBuffers.size() < 2) bench = new FuzzBench(r, lanes);
        byte[] later = TcpFrames.frame(r, TYPE_SEND, (byte) 0, 0, FuzzBench.PEER_PSN + 1, 0, 0, 0, 0, 0, NO_ACK);
        byte[] earlier = TcpFrames.frame(r, TYPE_SEND, (byte) 0, 0, FuzzBench.PEER_PSN, 0, 0, 0, 0, 0, NO_ACK);
        assertEquals(REFUSED, pumpAll(bench, TcpFrames.concat(List.of(later, earlier)), r), "one receive completed twice");
        assertTrue(lastRefusal.contains("consumed receive 0, but receive 1 is the next"), lastRefusal);
    }

    private static void aGoodWriteStillLands(SplittableRandom r) {
        FuzzBench fresh = new FuzzBench(r, lanes);
        LocalRegion target = fresh.regions.getFirst();
        byte[] good = TcpFrames.frame(r, TYPE_WRITE, (byte) 0, 32, FuzzBench.PEER_PSN, 32, 0, target.address() + 8, target.rkey(), 0, NO_ACK);
        assertEquals(ENDED, pumpAll(fresh, good, r));
        MemorySegment landed = target.segment().asSlice(8, 32);
        for (int i = 0; i < 32; i++) assertEquals(good[HEADER_BYTES + i], landed.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
        assertTrue(fresh.guardsIntact());
    }

    /** Pumps until the stream refuses a frame or ends; anything else thrown is a crash. */
    private static int pumpAll(FuzzBench bench, byte[] wire, SplittableRandom r) {
        InboundStream stream = new InboundStream(new ScriptedChannel(wire, r), "fuzz peer", 0, bench);
        long before = Allocations.ofCurrentThread();
        try {
            for (int i = 0; i < 10_000_000; i++) {
                try {
                    stream.pump(r.nextInt(3) == 0);
                } catch (MalformedFrameException refused) {
                    lastRefusal = refused.getMessage();
                    return REFUSED;
                } catch (EOFException ended) {
                    return ENDED;
                } catch (IOException | RuntimeException | Error e) {
                    throw new AssertionError("reading " + wire.length + " bytes crashed instead of refusing", e);
                }
            }
            fail("no progress through " + wire.length + " bytes");
            return -1;
        } finally {
            long allocated = Allocations.ofCurrentThread() - before;
            assertTrue(allocated < (2 << 20) + 4L * wire.length, allocated + " bytes allocated to read " + wire.length);
        }
    }
}
