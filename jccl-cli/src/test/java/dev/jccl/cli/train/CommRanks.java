package dev.jccl.cli.train;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.Jccl;
import dev.jccl.bootstrap.MemoryStore;
import dev.jccl.testkit.RankRunner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Threads as ranks over a real transport: each rank joins an in-memory store and gets its own
 * communicator over {@code provider}; shared-memory files live in a private folder removed afterwards.
 */
final class CommRanks {
    interface Body<T> {
        T run(Communicator comm) throws Exception;
    }

    private CommRanks() {}

    static <T> List<T> run(int n, String provider, Body<T> body) {
        return run(n, provider, Map.of(), body);
    }

    /** With extra knobs for every rank, e.g. JCCL_TRACE. */
    static <T> List<T> run(int n, String provider, Map<String, String> knobs, Body<T> body) {
        Path dir = tempDir();
        List<T> results = Collections.synchronizedList(new ArrayList<>(Collections.nCopies(n, null)));
        try (MemoryStore store = new MemoryStore()) {
            RankRunner.run(n, TimeUnit.SECONDS.toNanos(90), rank -> {
                CommOptions opts = CommOptions.builder().rank(rank).size(n).store(store).ignoreEnvironment()
                        .transports(provider).knobs(Map.of("JCCL_SHM_DIR", dir.toString(), "JCCL_TIMEOUT", "30s")).knobs(knobs).build();
                try (Communicator comm = Jccl.init(opts)) {
                    results.set(rank, body.run(comm));
                }
            });
        } finally {
            delete(dir);
        }
        return new ArrayList<>(results);
    }

    private static Path tempDir() {
        try {
            Path base = Path.of(Files.isDirectory(Path.of("/dev/shm")) ? "/dev/shm" : System.getProperty("java.io.tmpdir"));
            return Files.createTempDirectory(base, "jccl-train-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
