package dev.jccl.cli.itest;

import dev.jccl.bootstrap.TcpStoreClient;
import dev.jccl.cli.launch.LaunchResult;
import dev.jccl.cli.launch.LaunchedJob;
import dev.jccl.cli.launch.Launcher;
import dev.jccl.testkit.ProviderUnderTest;
import dev.jccl.testkit.jvm.JavaCommand;
import dev.jccl.util.AuthHandshake;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Three real rank JVMs connect a full mesh through the launcher; the test kills rank 2 with SIGKILL.
 * The two survivors must see every receive and send they had outstanding to rank 2 flushed within
 * 5 s, keep their own link working, and exit 0; the launcher must name rank 2 as killed by SIGKILL.
 *
 * <p>The launcher stops a job the moment it sees a rank fail, and SIGTERM ends a JVM at once, so a
 * grace period would not give the survivors time to report. The test therefore drives the
 * {@link LaunchedJob} itself: it calls {@link LaunchedJob#await()} only after the survivors exited.
 */
@Tag("multiprocess")
class PeerDeathTest {
    private static final long SECOND_NS = TimeUnit.SECONDS.toNanos(1);
    private static final Pattern FLUSH_REPORT = Pattern.compile(
            "(\\d+)/(\\d+) work requests to rank 2 flushed \\(WR_FLUSH_ERR\\) ([\\d.]+) ms after the kill; sends among them 1; qp state ERR");

    @TempDir(factory = ShmTempDirs.class)
    Path shmDir;

    static Stream<String> providers() {
        return ProviderUnderTest.names();
    }

    @ParameterizedTest
    @MethodSource("providers")
    @Timeout(60)
    void survivorsSeeTheirWorkToAKilledRankFlushedWithinFiveSeconds(String provider) throws Exception {
        ProviderUnderTest.require(provider);
        LiveOutput out = new LiveOutput();
        String token = AuthHandshake.newToken();
        LaunchedJob job = Launcher.builder().nprocPerNode(3).command(JavaCommand.main(PeerDeathRank.class).fastStart().args(provider).toList())
                .authToken(token).env("JCCL_RNR_TIMEOUT", "60s").env("JCCL_TIMEOUT", "20s")
                .env("JCCL_SHM_DIR", shmDir.toString())
                .timeoutNs(55 * SECOND_NS).graceNs(SECOND_NS).output(out.stream, out.stream).captureOutput(true).build().start();
        try {
            long pid = Long.parseLong(out.awaitLine("[2] pid ", Duration.ofSeconds(40)).substring("[2] pid ".length()));
            assertEquals(job.pid(2), pid, "rank 2 runs in the process the launcher started");
            out.awaitLine("[0] armed", Duration.ofSeconds(10));
            out.awaitLine("[1] armed", Duration.ofSeconds(10));
            long killedAtNs = PeerDeathRank.epochNanos(Instant.now());
            assertTrue(ProcessHandle.of(pid).orElseThrow().destroyForcibly());
            try (TcpStoreClient store = TcpStoreClient.connect("127.0.0.1", job.storePort(), token, 10 * SECOND_NS)) {
                store.set(PeerDeathRank.KILLED_AT_KEY, ByteBuffer.allocate(8).putLong(killedAtNs).array());
            }
            // Only now may the launcher see the kill: it would stop the survivors at once.
            for (int r = 0; r < 2; r++) ProcessHandle.of(job.pid(r)).ifPresent(h -> h.onExit().orTimeout(30, TimeUnit.SECONDS).join());
        } catch (Throwable t) {
            job.stop("test failed");
            job.await();
            throw new AssertionError(t.getMessage() + "\noutput:\n" + out.text(), t);
        }
        LaunchResult result = job.await();
        String all = out.text();
        System.out.println("peer death over " + provider + ":\n" + all + result.message());
        assertEquals(2, result.failedRank(), result.message() + "\n" + all);
        assertEquals(137, result.failedStatus(), all);
        assertTrue(result.message().startsWith("jccl launch: rank 2 exited with status 137 (killed by SIGKILL)"), result.message());
        assertEquals(List.of(0, 0, 137), result.exitCodes(), all);
        for (int r = 0; r < 2; r++) checkSurvivor(r, result.output(r), all);
        if (provider.equals("shm")) {
            try (Stream<Path> left = Files.list(shmDir)) {
                assertEquals(List.of(), left.toList(), "shared-memory files left behind by the killed rank or the survivors");
            }
        }
    }

    private static void checkSurvivor(int rank, List<String> lines, String all) {
        List<String> reports = lines.stream().filter(l -> FLUSH_REPORT.matcher(l).find()).toList();
        assertEquals(1, reports.size(), "rank " + rank + " reports its flush once:\n" + all);
        Matcher m = FLUSH_REPORT.matcher(reports.getFirst());
        assertTrue(m.find());
        assertEquals(m.group(2), m.group(1), "every outstanding request flushed: " + reports.getFirst());
        double ms = Double.parseDouble(m.group(3));
        assertTrue(ms >= 0 && ms < 5000, "rank " + rank + " noticed the kill after " + ms + " ms");
        List<String> flushed = lines.stream().filter(l -> l.startsWith("completion from rank 2: ")).toList();
        assertEquals(PeerDeathRank.RECEIVES + 1, flushed.size(), all);
        for (String wc : flushed) {
            assertTrue(wc.contains(" WR_FLUSH_ERR ") && wc.matches(".*\\(.+\\)}$"), "flushed with a reason: " + wc);
        }
        assertTrue(lines.contains("link to rank " + (1 - rank) + " still works"), all);
        assertTrue(lines.contains("done"), all);
        assertTrue(lines.stream().noneMatch(l -> l.startsWith("FAILED")), all);
    }
}
