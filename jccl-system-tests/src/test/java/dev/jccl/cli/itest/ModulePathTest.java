package dev.jccl.cli.itest;

import dev.jccl.Communicator;
import dev.jccl.cli.Main;
import dev.jccl.testkit.jvm.ChildJvm;
import dev.jccl.testkit.jvm.JavaCommand;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command runs as named modules too: {@code java -p ... -m dev.jccl.cli/dev.jccl.cli.Main}
 * lists both providers, found through the core's {@code provides}, and a two-rank perf run, whose
 * ranks start from the same module path, checks its results.
 */
@Tag("multiprocess")
class ModulePathTest {
    private static final long LIMIT_NS = TimeUnit.SECONDS.toNanos(120);

    @Test
    @Timeout(150)
    void devinfoFindsBothProvidersThroughTheModuleDeclarations() throws Exception {
        String out = run("devinfo");
        assertTrue(out.contains("provider: shm") && out.contains("provider: tcp"), out);
    }

    @Test
    @Timeout(150)
    void perfRanksStartFromTheModulePathAndCheckTheirResults() throws Exception {
        String out = run("perf", "allreduce", "-N", "2", "-p", "shm", "-b", "8", "-e", "1K", "-n", "3", "-w", "1",
                "--jit-warmup", "0s", "-c", "1");
        assertTrue(out.contains("Out of bounds values : 0 OK"), out);
    }

    private static String run(String... args) throws Exception {
        List<String> argv = new ArrayList<>(List.of(JavaCommand.javaExecutable().toString(),
                "--enable-native-access=dev.jccl.cli,dev.jccl", "--module-path", modulePath(),
                "--module", "dev.jccl.cli/" + Main.class.getName()));
        argv.addAll(List.of(args));
        try (ChildJvm cli = ChildJvm.start("jccl " + String.join(" ", args), argv, Map.of("JCCL_TIMEOUT", "30s"))) {
            int status = cli.awaitExit(LIMIT_NS);
            assertEquals(0, status, cli.output());
            return cli.stdout();
        }
    }

    /** Where the core, the cli and the cli's two libraries were loaded from: jars or class folders. */
    private static String modulePath() throws URISyntaxException {
        List<Path> roots = new ArrayList<>();
        for (Class<?> c : List.of(Communicator.class, Main.class, CommandLine.class, Histogram.class)) {
            roots.add(Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()));
        }
        for (Path p : roots.subList(0, 2)) {
            assertTrue(Files.isRegularFile(p) || Files.exists(p.resolve("module-info.class")), "no module descriptor in " + p);
        }
        return Stream.of(roots.toArray(Path[]::new)).map(Path::toString).collect(Collectors.joining(File.pathSeparator));
    }
}
