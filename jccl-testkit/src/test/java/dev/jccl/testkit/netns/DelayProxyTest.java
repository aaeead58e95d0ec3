package dev.jccl.testkit.netns;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** The delay proxy on loopback: bytes arrive intact, in order, and a round trip takes both delays. */
@Tag("unit")
class DelayProxyTest {
    @Test
    @Timeout(30)
    void aRoundTripThroughTheProxyTakesTheDelayBothWaysAndKeepsEveryByte() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (ServerSocket echo = new ServerSocket(0, 4, lo)) {
            Thread.ofPlatform().daemon().start(() -> {
                try (Socket s = echo.accept(); InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                    in.transferTo(out);
                } catch (Exception ignored) {
                    // the test ended
                }
            });
            try (DelayProxy proxy = new DelayProxy(new InetSocketAddress(lo, 0), new InetSocketAddress(lo, echo.getLocalPort()),
                    TimeUnit.MILLISECONDS.toNanos(40), TimeUnit.MILLISECONDS.toNanos(5));
                 Socket s = new Socket(lo, proxy.port())) {
                byte[] sent = new byte[300_000];
                for (int i = 0; i < sent.length; i++) sent[i] = (byte) (i * 31 + 7);
                long start = System.nanoTime();
                Thread.ofPlatform().daemon().start(() -> {
                    try {
                        s.getOutputStream().write(sent);
                    } catch (Exception ignored) {
                        // the read below fails then
                    }
                });
                byte[] got = s.getInputStream().readNBytes(sent.length);
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                assertArrayEquals(sent, got, "every byte, in order");
                assertTrue(ms >= 70, "two delays of 40 +- 5 ms: took " + ms + " ms");
            }
        }
    }
}
