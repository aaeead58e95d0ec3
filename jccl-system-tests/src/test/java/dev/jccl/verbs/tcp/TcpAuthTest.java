package dev.jccl.verbs.tcp;

import dev.jccl.config.Config;
import dev.jccl.trace.Log;
import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.VerbsException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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

    @Test
    void wrongTokenIsRefusedAndLogged() throws IOException {
        Path logFile = dir.resolve("jccl.log");
        Log.configure(Config.of(Map.of("JCCL_DEBUG_FILE", logFile.toString())));
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1, "JCCL_AUTH_TOKEN", "not-the-job-token"), 4);
             TcpPeer b = new TcpPeer(TcpPeer.config(1), 4)) {
            VerbsException e = assertThrows(VerbsException.class, () -> a.qp.modifyToRtr(b.qp.localInfo()));
            assertTrue(e.getMessage().contains("refused the job token"), e.getMessage());
            assertTrue(e.getMessage().contains(b.qp.localInfo().gid()), e.getMessage());
            assertEquals(QpState.INIT, a.qp.state(), "a failed connect changes nothing");
            String line = awaitLine(logFile, "refused connection from 127.0.0.1:");
            assertTrue(line.contains("WARN"), line);
            assertTrue(line.contains("job token"), line);
        }
    }

    @Test
    void missingTokenIsRefused() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1, "JCCL_AUTH_TOKEN", ""), 4);
             TcpPeer b = new TcpPeer(TcpPeer.config(1), 4)) {
            VerbsException e = assertThrows(VerbsException.class, () -> a.qp.modifyToRtr(b.qp.localInfo()));
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
