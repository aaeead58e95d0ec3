package dev.jccl.bootstrap;

import dev.jccl.config.Config;
import dev.jccl.trace.Log;
import dev.jccl.trace.RateLimitedWarning;
import dev.jccl.util.AuthHandshake;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.jccl.bootstrap.MemoryStoreTest.b;
import static dev.jccl.bootstrap.StoreFrameDescriptor.*;
import static dev.jccl.bootstrap.TcpStoreTest.SECOND;
import static dev.jccl.bootstrap.TcpStoreTest.TOKEN;
import static org.junit.jupiter.api.Assertions.*;

/** Wrong tokens and broken frames cost the sender its connection, never the server. */
@Timeout(30)
@Tag("unit")
class TcpStoreHostileClientTest {
    private final TcpStoreServer server = TcpStoreServer.startLoopback(0, TOKEN, SECOND);

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void wrongTokenIsRefusedAndLoggedWithTheRemoteAddress(@TempDir Path dir) throws Exception {
        Path logFile = dir.resolve("store.log");
        Log.configure(Config.of(Map.of("JCCL_DEBUG", "WARN", "JCCL_DEBUG_FILE", logFile.toString())));
        StoreException e = assertThrows(StoreException.class,
                () -> TcpStoreClient.connect("127.0.0.1", server.port(), "not-the-token", 5 * SECOND));
        assertTrue(e.getMessage().contains("refused") && e.getMessage().contains("JCCL_AUTH_TOKEN"), e.getMessage());
        String log = awaitLogLine(logFile, "refused connection from /127.0.0.1:");
        assertTrue(log.contains("[BOOTSTRAP]") && log.contains("job token"), log);
        try (TcpStoreClient good = TcpStoreClient.connect("127.0.0.1", server.port(), TOKEN, 5 * SECOND)) {
            good.set("k", b("v"));
        }
    }

    @Test
    void aPortScanWritesAFewLinesAndSaysHowManyItLeftOut(@TempDir Path dir) throws Exception {
        Path logFile = dir.resolve("scan.log");
        Log.configure(Config.of(Map.of("JCCL_DEBUG", "WARN", "JCCL_DEBUG_FILE", logFile.toString())));
        int scans = 40;
        for (int i = 0; i < scans; i++) {
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                s.setSoTimeout(5_000);
                s.getOutputStream().write("SSH-2.0-scanner\r\n".getBytes(StandardCharsets.US_ASCII));
                skipServerHello(s.getInputStream());
                assertClosedByServer(s.getInputStream());
            }
        }
        long deadline = System.nanoTime() + 5 * SECOND;
        while (server.refusals().total() < scans && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        server.close();
        List<String> lines = Files.readAllLines(logFile);
        long refusals = lines.stream().filter(l -> l.contains("refused connection from")).count();
        assertEquals(RateLimitedWarning.DEFAULT_BURST, refusals, String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.contains((scans - RateLimitedWarning.DEFAULT_BURST) + " similar refusals suppressed")),
                String.join("\n", lines));
        Log.configure(Config.of(Map.of()));
    }

    @Test
    void notSpeakingJcclAtAllIsDropped() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            skipServerHello(s.getInputStream());
            assertClosedByServer(s.getInputStream());
        }
        assertServerStillServes();
    }

    @Test
    void silentClientIsDroppedAfterTheHandshakeTimeout() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(5_000);
            skipServerHello(s.getInputStream());
            long start = System.nanoTime();
            assertClosedByServer(s.getInputStream());
            assertTrue(System.nanoTime() - start > SECOND / 2, "dropped only once the handshake timeout ran out");
        }
    }

    @Test
    void malformedFramesCloseOnlyTheirConnection() throws Exception {
        Map<String, byte[]> cases = new LinkedHashMap<>();
        cases.put("huge length", ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array());
        cases.put("negative length", ByteBuffer.allocate(4).putInt(-5).array());
        cases.put("length below a header", frame(new byte[]{OP_SET}));
        cases.put("unknown opcode", frame(ByteBuffer.allocate(9).put((byte) 99).putLong(1).array()));
        cases.put("key longer than the frame", frame(ByteBuffer.allocate(17).put(OP_TRY_GET).putLong(1).putInt(1000).put(new byte[4]).array()));
        cases.put("key over the limit", frame(ByteBuffer.allocate(13 + 2000).put(OP_TRY_GET).putLong(1).putInt(2000).put(new byte[2000]).array()));
        cases.put("empty key", frame(ByteBuffer.allocate(13).put(OP_TRY_GET).putLong(1).putInt(0).array()));
        cases.put("trailing bytes", frame(ByteBuffer.allocate(15).put(OP_TRY_GET).putLong(1).putInt(1).put((byte) 'k').put((byte) 0).array()));
        cases.put("value length -5", frame(ByteBuffer.allocate(18).put(OP_SET).putLong(1).putInt(1).put((byte) 'k').putInt(-5).array()));
        cases.put("SET without value", frame(ByteBuffer.allocate(18).put(OP_SET).putLong(1).putInt(1).put((byte) 'k').putInt(ABSENT).array()));
        cases.put("invalid UTF-8 key", frame(ByteBuffer.allocate(15).put(OP_TRY_GET).putLong(1).putInt(2).put((byte) 0xC3).put((byte) 0x28).array()));
        cases.put("absurd key count", frame(ByteBuffer.allocate(21).put(OP_WAIT).putLong(1).putInt(1 << 30).putLong(0).array()));
        cases.put("negative timeout", frame(ByteBuffer.allocate(22).put(OP_GET).putLong(1).putInt(1).put((byte) 'k').putLong(-1).array()));
        cases.put("frame cut short", ByteBuffer.allocate(8).putInt(100).putInt(0).array());
        for (Map.Entry<String, byte[]> c : cases.entrySet()) {
            try (Socket s = authenticated()) {
                s.getOutputStream().write(c.getValue());
                s.getOutputStream().flush();
                if (c.getKey().equals("frame cut short")) s.shutdownOutput();
                assertClosedByServer(s.getInputStream(), c.getKey());
            }
        }
        assertServerStillServes();
    }

    @Test
    void aWellFormedRawFrameIsAnswered() throws Exception {
        try (Socket s = authenticated()) {
            s.getOutputStream().write(frame(ByteBuffer.allocate(14).put(OP_TRY_GET).putLong(42).putInt(1).put((byte) 'k').array()));
            s.getOutputStream().flush();
            ByteBuffer answer = ByteBuffer.wrap(s.getInputStream().readNBytes(4 + 8 + 1 + 4));
            assertEquals(13, answer.getInt());
            assertEquals(42, answer.getLong());
            assertEquals(STATUS_OK, answer.get());
            assertEquals(ABSENT, answer.getInt());
        }
    }

    private Socket authenticated() throws IOException {
        Socket s = new Socket("127.0.0.1", server.port());
        s.setSoTimeout(5_000);
        AuthHandshake.client(s.getInputStream(), s.getOutputStream(), TOKEN, TcpStoreServer.HANDSHAKE_PURPOSE);
        return s;
    }

    /** The server speaks first: magic and nonce. */
    private static void skipServerHello(InputStream in) throws IOException {
        assertEquals(20, in.readNBytes(20).length);
    }

    private static byte[] frame(byte[] body) {
        return ByteBuffer.allocate(4 + body.length).putInt(body.length).put(body).array();
    }

    private static void assertClosedByServer(InputStream in, String... what) throws IOException {
        try {
            assertEquals(-1, in.read(), "server should close the connection: " + String.join("", what));
        } catch (java.net.SocketException reset) {
            // closed with our bytes unread: a reset is as good as an end of stream
        }
    }

    private void assertServerStillServes() {
        try (TcpStoreClient c = TcpStoreClient.connect("127.0.0.1", server.port(), TOKEN, 5 * SECOND)) {
            c.set("alive", b("yes"));
            assertArrayEquals(b("yes"), c.get("alive", SECOND));
        }
    }

    private static String awaitLogLine(Path file, String needle) throws Exception {
        long deadline = System.nanoTime() + 5 * SECOND;
        while (System.nanoTime() < deadline) {
            if (Files.exists(file)) {
                for (String line : Files.readAllLines(file)) {
                    if (line.contains(needle)) return line;
                }
            }
            Thread.sleep(20);
        }
        fail("no log line containing '" + needle + "' in " + file);
        return null;
    }

}
