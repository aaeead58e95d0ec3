package dev.jccl.cli.launch;

import dev.jccl.cli.Main;
import dev.jccl.testkit.jvm.JavaCommand;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** Starts real rank JVMs through the launcher. */
@Tag("multiprocess")
class LauncherTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private static List<String> testRank(String... args) {
        return JavaCommand.main(TestRank.class).fastStart().args(args).toList();
    }

    /** Runs {@code r} with System.out and System.err sent to the given streams. */
    private static void withStdio(PrintStream out, PrintStream err, Runnable r) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        System.setOut(out);
        System.setErr(err);
        try {
            r.run();
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    @Test
    @Timeout(60)
    void jcclLaunchGivesEveryRankItsVariablesAndTheyMeetThroughTheHostedStore() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> argv = new ArrayList<>(List.of("launch", "--nproc-per-node", "3", "--timeout", "45s", "--"));
        argv.addAll(testRank("rendezvous"));
        int[] rc = new int[1];
        withStdio(new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                () -> rc[0] = new CommandLine(new Main()).execute(argv.toArray(String[]::new)));
        String stdout = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, rc[0], stdout + err.toString(StandardCharsets.UTF_8));
        for (int r = 0; r < 3; r++) {
            assertTrue(stdout.contains("[" + r + "] rank " + r + " of 3 local " + r + "/3 node 0 count 3"), stdout);
        }
        assertTrue(stdout.contains("[0] wrong token refused"), stdout);
        for (String line : stdout.split("\\R")) assertTrue(line.matches("\\[[0-2]] .*"), "unprefixed line: " + line);
    }

    @Test
    @Timeout(60)
    void aRankExitingWithStatus3StopsTheOthersEvenIfTheyIgnoreSigterm() {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(sink, true, StandardCharsets.UTF_8);
        long start = System.nanoTime();
        LaunchResult result = Launcher.builder().nprocPerNode(3).command(testRank("fail", "1", "3"))
                .timeoutNs(45 * SECOND).graceNs(SECOND / 2).output(ps, ps).captureOutput(true).build().run();
        assertEquals(1, result.failedRank(), result.message());
        assertEquals(3, result.failedStatus());
        assertEquals(3, result.launcherExitCode());
        assertEquals("jccl launch: rank 1 exited with status 3; stopped 2 other ranks", result.message());
        assertEquals(List.of("failing with 3"), result.output(1));
        assertEquals(137, result.exitCodes().get(0), "SIGTERM was shrugged off, so SIGKILL ended it");
        assertEquals(137, result.exitCodes().get(2));
        assertTrue(sink.toString(StandardCharsets.UTF_8).contains("[1] failing with 3"));
        assertTrue(System.nanoTime() - start < 40 * SECOND, "the survivors were not left to sleep out their minute");
    }

    @Test
    @Timeout(60)
    void aRankKilledBySigkillIsReportedWithItsSignal() throws Exception {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(sink, true, StandardCharsets.UTF_8);
        LaunchedJob job = Launcher.builder().nprocPerNode(2).command(testRank("sleep"))
                .timeoutNs(45 * SECOND).graceNs(SECOND).output(ps, ps).captureOutput(true).build().start();
        long pid = job.pid(1);
        awaitLine(sink, "[1] pid " + pid); // the rank is up and says who it is
        assertTrue(ProcessHandle.of(pid).orElseThrow().destroyForcibly());
        LaunchResult result = job.await();
        assertEquals(1, result.failedRank());
        assertEquals(137, result.failedStatus());
        assertEquals("jccl launch: rank 1 exited with status 137 (killed by SIGKILL); stopped 1 other rank", result.message());
        assertEquals(137, result.launcherExitCode());
    }

    @Test
    @Timeout(30)
    void theOverallTimeoutStopsEverything() {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        LaunchResult result = Launcher.builder().nprocPerNode(2).command(List.of("sleep", "30"))
                .timeoutNs(SECOND / 2).graceNs(SECOND).output(quiet, quiet).build().run();
        assertTrue(result.timedOut());
        assertEquals(LaunchResult.TIMEOUT_EXIT, result.launcherExitCode());
        assertEquals("jccl launch: timed out after 0.5 s; stopped 2 ranks", result.message());
        assertEquals(List.of(143, 143), result.exitCodes());
    }

    @Test
    @Timeout(30)
    void jvmCommandStartsThisSameCliInANewJvm() {
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        LaunchResult result = Launcher.builder().command(JvmCommand.jcclCli("--version"))
                .timeoutNs(25 * SECOND).output(quiet, quiet).captureOutput(true).build().run();
        assertTrue(result.succeeded(), result.message() + " " + result.output(0));
        assertEquals(List.of("jccl 0.1.0"), result.output(0));
    }

    @Test
    @Timeout(30)
    void aCommandThatCannotStartIsALaunchError() {
        LaunchException e = assertThrows(LaunchException.class,
                () -> Launcher.builder().nprocPerNode(2).command(List.of("/nonexistent/rank")).build().start());
        assertTrue(e.getMessage().contains("cannot start rank 0") && e.getMessage().contains("/nonexistent/rank"), e.getMessage());
    }

    @Test
    @Timeout(10)
    void optionsAreCheckedTogether() {
        assertThrows(IllegalArgumentException.class, () -> Launcher.builder().nprocPerNode(0).command(List.of("x")).build());
        assertThrows(IllegalArgumentException.class, () -> Launcher.builder().nnodes(2).nodeRank(2).command(List.of("x")).build());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Launcher.builder().nnodes(2).masterPort(0).authToken("t").command(List.of("x")).build());
        assertTrue(e.getMessage().contains("--master-port"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> Launcher.builder().nnodes(2).masterPort(5000).command(List.of("x")).build());
        assertTrue(e.getMessage().contains("JCCL_AUTH_TOKEN"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Launcher.builder().build());
    }

    @Test
    @Timeout(10)
    void theRankCommandKeepsItsOwnOptionsWithOrWithoutDoubleDash() {
        for (List<String> tail : List.of(List.of("--"), List.<String>of())) {
            List<String> argv = new ArrayList<>(List.of("launch", "--nproc-per-node", "2", "--timeout", "5m"));
            argv.addAll(tail);
            argv.addAll(List.of("java", "-cp", "app.jar", "my.Train", "--nproc-per-node", "9"));
            CommandLine.ParseResult parsed = new CommandLine(new Main()).parseArgs(argv.toArray(String[]::new));
            LaunchCommand launch = (LaunchCommand) parsed.subcommand().commandSpec().userObject();
            assertEquals(2, launch.local.ranks());
            assertEquals("5m", launch.local.timeout());
            assertEquals(List.of("java", "-cp", "app.jar", "my.Train", "--nproc-per-node", "9"), launch.command);
        }
    }

    @Test
    @Timeout(10)
    void exitStatusesReadLikeAShellReadsThem() {
        assertEquals("status 3", ExitStatus.describe(3));
        assertEquals("status 137 (killed by SIGKILL)", ExitStatus.describe(137));
        assertEquals("status 143 (killed by SIGTERM)", ExitStatus.describe(143));
        assertEquals("status 139 (killed by SIGSEGV)", ExitStatus.describe(139));
        assertEquals("status 128", ExitStatus.describe(128));
    }

    private static void awaitLine(ByteArrayOutputStream sink, String line) throws InterruptedException {
        long deadline = System.nanoTime() + 30 * SECOND;
        while (!sink.toString(StandardCharsets.UTF_8).contains(line)) {
            if (System.nanoTime() > deadline) fail("no line '" + line + "' in: " + sink.toString(StandardCharsets.UTF_8));
            Thread.sleep(20);
        }
    }
}
