package dev.jccl.util;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
@Tag("unit")
class AuthHandshakeTest {
    /** Runs the server side of one handshake on a loopback socket; completes with its outcome. */
    private static CompletableFuture<Void> serveOnce(ServerSocket listener, String token) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (Socket s = listener.accept()) {
                s.setSoTimeout(5000);
                AuthHandshake.server(s.getInputStream(), s.getOutputStream(), token, "test");
                done.complete(null);
            } catch (IOException e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    private static void client(int port, String token) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(5000);
            AuthHandshake.client(s.getInputStream(), s.getOutputStream(), token, "test");
        }
    }

    @Test
    void matchingTokensAuthenticateBothWays() throws Exception {
        try (ServerSocket l = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> server = serveOnce(l, "secret");
            assertDoesNotThrow(() -> client(l.getLocalPort(), "secret"));
            server.get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void wrongTokenIsRefusedByTheServerAndTheClientLearnsIt() throws Exception {
        try (ServerSocket l = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> server = serveOnce(l, "secret");
            IOException refused = assertThrows(IOException.class, () -> client(l.getLocalPort(), "guess"));
            // The server closes without a proof: the client says so, naming the token as the likely cause.
            assertTrue(refused.getMessage().contains("closed the connection without proving the job token (JCCL_AUTH_TOKEN"),
                    refused.getMessage());
            ExecutionException e = assertThrows(ExecutionException.class, () -> server.get(5, TimeUnit.SECONDS));
            assertInstanceOf(AuthHandshake.AuthenticationException.class, e.getCause());
        }
    }

    @Test
    void aPeerSpeakingSomethingElseIsRefused() throws Exception {
        try (ServerSocket l = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Void> server = serveOnce(l, "secret");
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), l.getLocalPort())) {
                s.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes());
                ExecutionException e = assertThrows(ExecutionException.class, () -> server.get(5, TimeUnit.SECONDS));
                assertInstanceOf(AuthHandshake.AuthenticationException.class, e.getCause());
            }
        }
    }

    @Test
    void tokensAreFreshAndLongEnough() {
        String a = AuthHandshake.newToken();
        assertNotEquals(a, AuthHandshake.newToken());
        assertEquals(48, a.length());
    }
}
