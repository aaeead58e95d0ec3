package dev.jccl.verbs.tcp;

import dev.jccl.config.Config;
import dev.jccl.trace.Log;
import dev.jccl.trace.RateLimitedWarning;
import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.VerbsException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A connection that cannot prove the job token is refused, and the listener says who tried. */
@Timeout(30)
@Tag("unit")
class TcpAuthTest {
    @TempDir
    Path dir;

    @AfterEach
    void restoreLog() {
        Log.configure(Config.of(Map.of()));
    }

    /** Whichever side opens the sockets (both in split mode, the one that sorts first in shared mode) is refused. */
    @ParameterizedTest
    @ValueSource(strings = {"1", "0"})
    void wrongTokenIsRefusedAndLogged(String shared) throws IOException {
        Path logFile = dir.resolve("jccl.log");
        Log.configure(Config.of(Map.of("JCCL_DEBUG_FILE", logFile.toString())));
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1, "JCCL_AUTH_TOKEN", "not-the-job-token", "JCCL_TCP_SHARED_SOCKETS", shared), 4);
             TcpPeer b = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_SHARED_SOCKETS", shared), 4)) {
            TcpPeer opener = shared.equals("0") ? a : TcpPeer.byRole(a, b)[0];
            TcpPeer other = opener == a ? b : a;
            VerbsException e = assertThrows(VerbsException.class, () -> opener.qp.modifyToRtr(other.qp.localInfo()));
            assertTrue(e.getMessage().contains("refused the job token"), e.getMessage());
            assertTrue(e.getMessage().contains(other.qp.localInfo().gid()), e.getMessage());
            assertEquals(QpState.INIT, opener.qp.state(), "a failed connect changes nothing");
            String line = awaitLine(logFile, "refused connection from 127.0.0.1:");
            assertTrue(line.contains("WARN"), line);
            assertTrue(line.contains("job token"), line);
        }
    }

    @Test
    void aPortScanWritesAFewLinesAndSaysHowManyItLeftOut() throws IOException {
        Path logFile = dir.resolve("scan.log");
        Log.configure(Config.of(Map.of("JCCL_DEBUG_FILE", logFile.toString())));
        int scans = 30;
        try (TcpPeer b = new TcpPeer(TcpPeer.config(1), 4)) {
            InetSocketAddress listener = TcpConnection.parseGid(b.qp.localInfo().gid());
            for (int i = 0; i < scans; i++) {
                try (Socket s = new Socket(listener.getAddress(), listener.getPort())) {
                    s.setSoTimeout(10_000);
                    s.getOutputStream().write("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    s.shutdownOutput();
                    try {
                        s.getInputStream().readAllBytes(); // the listener's hello, then its close: the refusal is logged by then
                    } catch (SocketException reset) {
                        // closed with the hello unread by us: closed all the same
                    }
                }
            }
        } // closing the listener reports what it left out
        List<String> lines = Files.readAllLines(logFile);
        int burst = RateLimitedWarning.DEFAULT_BURST;
        assertEquals(burst, lines.stream().filter(l -> l.contains("refused connection from")).count(), String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.contains((scans - burst) + " similar refusals suppressed")), String.join("\n", lines));
    }

    /** The side that opens the shared sockets is refused, whichever of the two lacks the token. */
    @Test
    void missingTokenIsRefused() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1, "JCCL_AUTH_TOKEN", ""), 4);
             TcpPeer b = new TcpPeer(TcpPeer.config(1), 4)) {
            TcpPeer[] roles = TcpPeer.byRole(a, b);
            VerbsException e = assertThrows(VerbsException.class, () -> roles[0].qp.modifyToRtr(roles[1].qp.localInfo()));
            assertTrue(e.getMessage().contains("refused the job token"), e.getMessage());
        }
    }

    private static String awaitLine(Path file, String fragment) throws IOException {
        Deadline deadline = Deadline.after(TimeUnit.SECONDS.toNanos(10));
        BackoffIdleStrategy idle = WaitPolicy.stateWait();
        while (!deadline.expired()) {
            if (Files.exists(file)) {
                for (String line : Files.readAllLines(file)) if (line.contains(fragment)) return line;
            }
            idle.idle();
        }
        throw new AssertionError("no log line containing '" + fragment + "' in " + file);
    }
}
