package dev.jccl.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A folder of its own for one test's shared-memory files (JCCL_SHM_DIR), on tmpfs where there is
 * one, so tests running side by side never see each other's files and a leak is visible as files
 * left in it. {@link #close()} removes the folder and everything in it.
 */
public final class PrivateShmDir implements AutoCloseable {
    private final Path path;

    private PrivateShmDir(Path path) {
        this.path = path;
    }

    /** A new empty folder named {@code prefix...} under /dev/shm, or the temp folder where there is no tmpfs. */
    public static PrivateShmDir create(String prefix) {
        try {
            return new PrivateShmDir(Files.createTempDirectory(root(), prefix));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where shared-memory files of tests go: /dev/shm when it is there, else java.io.tmpdir. */
    public static Path root() {
        Path tmpfs = Path.of("/dev/shm");
        return Files.isDirectory(tmpfs) && Files.isWritable(tmpfs) ? tmpfs : Path.of(System.getProperty("java.io.tmpdir"));
    }

    public Path path() {
        return path;
    }

    @Override
    public String toString() {
        return path.toString();
    }

    /** The files in the folder now, e.g. to assert that closing everything left none behind. */
    public List<Path> files() {
        try (Stream<Path> s = Files.list(path)) {
            return s.toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Removes the folder and its contents. Best effort for each file: a rank thread that outlived a
     * failed test may still be closing its own files.
     */
    @Override
    public void close() {
        deleteTree(path);
    }

    /** Removes {@code dir} and everything under it, ignoring files that vanish meanwhile. */
    public static void deleteTree(Path dir) {
        if (!Files.exists(dir)) return;
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException ignored) {
                    // what cannot be removed now shows up as a leftover in the next sweep of /dev/shm
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // a file removed while walking: what is left is retried by the next test run's sweep
        }
    }
}
