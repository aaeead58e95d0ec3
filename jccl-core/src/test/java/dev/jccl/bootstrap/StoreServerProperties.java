package dev.jccl.bootstrap;

import dev.jccl.fuzz.FuzzCount;
import dev.jccl.fuzz.Mutator;
import dev.jccl.fuzz.Tries;
import dev.jccl.util.AuthHandshake;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.SplittableRandom;

import static dev.jccl.bootstrap.MemoryStoreTest.b;
import static dev.jccl.bootstrap.TcpStoreTest.SECOND;
import static dev.jccl.bootstrap.TcpStoreTest.TOKEN;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A real store server over loopback, fed garbage by clients that never proved the token and by
 * clients that did: each bad connection is closed, frames before the bad one are answered, the bad
 * one is not, no connection is left behind, and a well-behaved client keeps being served throughout.
 */
@Tag("unit")
class StoreServerProperties {
    private static final String BEFORE_AUTH = "store-server (before authentication)";
    private static final String AFTER_AUTH = "store-server (after authentication)";
    private static final int TRIES = 400;
    private static TcpStoreServer server;
    private static TcpStoreClient good;

    @BeforeAll
    static void start() {
        server = TcpStoreServer.startLoopback(0, TOKEN, SECOND);
        good = TcpStoreClient.connect("127.0.0.1", server.port(), TOKEN, 5 * SECOND);
    }

    @AfterAll
    static void stop() {
        good.close();
        server.close();
        FuzzCount.report(BEFORE_AUTH);
        FuzzCount.report(AFTER_AUTH);
    }

    @Test
    void garbageInsteadOfTheHandshakeIsRefused() {
        Tries.run(TRIES, this::garbageInsteadOfTheHandshakeIsRefused);
    }

    /** One try of {@link #garbageInsteadOfTheHandshakeIsRefused()}. */
    private void garbageInsteadOfTheHandshakeIsRefused(long seed) throws Exception {
        Mutator m = new Mutator(new SplittableRandom(seed), ByteOrder.BIG_ENDIAN);
        try (Socket s = open()) {
            byte[] garbage = switch (m.random().nextInt(3)) {
                case 0 -> m.noise(m.random().nextInt(80)); // not jccl at all
                case 1 -> ByteBuffer.allocate(52).putInt(0x4A43434C).put(m.noise(48)).array(); // our magic, a forged proof
                default -> m.mutate(ByteBuffer.allocate(52).putInt(0x4A43434C).array());
            };
            s.getOutputStream().write(garbage);
            s.shutdownOutput(); // a cut-short hello is refused at once instead of after the handshake timeout
            assertEquals(0, drainResponses(s, true), "answered before authentication");
        }
        FuzzCount.record(BEFORE_AUTH, true);
        assertStillServes(seed);
    }

    @Test
    void garbageAfterTheHandshakeClosesOnlyThatConnection() {
        Tries.run(TRIES, this::garbageAfterTheHandshakeClosesOnlyThatConnection);
    }

    /** One try of {@link #garbageAfterTheHandshakeClosesOnlyThatConnection()}. */
    private void garbageAfterTheHandshakeClosesOnlyThatConnection(long seed) throws Exception {
        Mutator m = new Mutator(new SplittableRandom(seed), ByteOrder.BIG_ENDIAN);
        try (Socket s = open()) {
            AuthHandshake.client(s.getInputStream(), s.getOutputStream(), TOKEN, TcpStoreServer.HANDSHAKE_PURPOSE);
            OutputStream out = s.getOutputStream();
            int wellFormed = m.random().nextInt(4);
            for (int i = 0; i < wellFormed; i++) {
                out.write(StoreFrames.framed(StoreFrames.request(m.random(), i, true)));
                FuzzCount.record(AFTER_AUTH, false);
            }
            boolean cutShort = writeOneBadFrame(m, out);
            if (cutShort) s.shutdownOutput();
            out.flush();
            assertEquals(wellFormed, drainResponses(s, false), "the frames before the bad one are answered, the bad one is not");
            FuzzCount.record(AFTER_AUTH, true);
        }
        assertStillServes(seed);
    }

    /** Writes one frame the server must refuse; true when it is cut short (the caller ends the stream). */
    private static boolean writeOneBadFrame(Mutator m, OutputStream out) throws IOException {
        switch (m.random().nextInt(4)) {
            case 0 -> { // a length prefix outside the frame limits
                int n = (int) m.extreme();
                if (n >= StoreFrameDescriptor.MIN_BODY_BYTES && n <= StoreFrameDescriptor.MAX_BODY_BYTES) n = -n - 1;
                out.write(ByteBuffer.allocate(4).putInt(n).array());
                out.write(m.noise(m.random().nextInt(32)));
                return false;
            }
            case 1 -> { // a frame that ends before its length says
                byte[] body = StoreFrames.request(m.random(), 99, false);
                out.write(ByteBuffer.allocate(4).putInt(body.length + 1 + m.random().nextInt(1000)).array());
                out.write(body);
                return true;
            }
            default -> { // a mutated body, within a correct length prefix
                out.write(StoreFrames.framed(refusedBody(m)));
                return false;
            }
        }
    }

    /** A mutation of a good request that the decoder refuses (an unknown opcode if none of a few is). */
    private static byte[] refusedBody(Mutator m) {
        for (int attempt = 0; attempt < 8; attempt++) {
            byte[] body = m.mutate(StoreFrames.request(m.random(), 7, false));
            if (body.length >= StoreFrameDescriptor.MIN_BODY_BYTES && !StoreDecoderProperties.parsesWithinLimits(body)) return body;
        }
        return ByteBuffer.allocate(9).put((byte) 99).putLong(7).array();
    }

    private static Socket open() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
        s.setSoTimeout(5_000);
        return s;
    }

    /** Reads responses until the server closes; fails when it does neither within the socket timeout. */
    private static int drainResponses(Socket s, boolean beforeAuth) throws IOException {
        DataInputStream in = new DataInputStream(s.getInputStream());
        int responses = 0;
        try {
            if (beforeAuth && in.readNBytes(20).length < 20) return 0; // the server speaks first: magic and nonce
            while (true) {
                byte[] body = StoreCodec.readFrame(in);
                if (body == null) return responses;
                responses++;
            }
        } catch (EOFException | SocketException closed) {
            return responses; // closed mid-read, or reset with our bytes unread: closed either way
        } catch (SocketTimeoutException hang) {
            fail("the server neither answered nor closed the connection within 5 s");
            return -1;
        }
    }

    private static void assertStillServes(long seed) throws InterruptedException {
        good.set("alive", b(Long.toString(seed)));
        assertArrayEquals(b(Long.toString(seed)), good.get("alive", SECOND));
        long deadline = System.nanoTime() + 5 * SECOND;
        while (server.connectionCount() > 1 && System.nanoTime() < deadline) Thread.sleep(1);
        assertEquals(1, server.connectionCount(), "a refused connection was left open");
    }
}
