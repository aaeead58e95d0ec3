package dev.jccl.comm;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.Jccl;
import dev.jccl.bootstrap.MemoryStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.stream.Stream;

/**
 * Threads as ranks: each rank joins one in-memory store with its own provider contexts, runs its
 * body on its communicator, and closes it. Shared-memory files go to a private directory that is
 * removed afterwards.
 */
final class Ranks {
    /** What each rank does with its communicator; returns whatever the test compares. */
    interface Body<T> {
        T run(Communicator comm) throws Exception;
    }

    private Ranks() {}

    static <T> List<T> run(int n, Map<String, String> knobs, Body<T> body) throws Exception {
        return run(n, r -> knobs, body);
    }

    /** Like {@link #run(int, Map, Body)} with knobs per rank (e.g. JCCL_HOST_ID). */
    static <T> List<T> run(int n, IntFunction<Map<String, String>> knobsOf, Body<T> body) throws Exception {
        Path dir = Files.createTempDirectory(Path.of(Files.isDirectory(Path.of("/dev/shm")) ? "/dev/shm" : System.getProperty("java.io.tmpdir")), "jccl-comm-");
        MemoryStore store = new MemoryStore();
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<T>> fs = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                Map<String, String> k = new HashMap<>(knobsOf.apply(rank));
                k.putIfAbsent("JCCL_SHM_DIR", dir.toString());
                k.putIfAbsent("JCCL_TIMEOUT", "20s");
                fs.add(pool.submit(() -> {
                    try (Communicator comm = Jccl.init(CommOptions.builder().rank(rank).size(n).store(store)
                            .ignoreEnvironment().knobs(k).build())) {
                        return body.run(comm);
                    }
                }));
            }
            List<T> out = new ArrayList<>();
            Exception first = null;
            for (Future<T> f : fs) {
                try {
                    out.add(f.get(120, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    if (first == null) first = e.getCause() instanceof Exception x ? x : e;
                    out.add(null);
                }
            }
            if (first != null) throw first;
            return out;
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
            store.close();
            deleteTree(dir);
        }
    }

    static Map<String, String> knobs(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return m;
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted((a, b) -> b.getNameCount() - a.getNameCount()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
