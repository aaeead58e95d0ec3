package dev.jccl.verbs.shm;

import dev.jccl.config.Config;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.VerbsProvider;
import dev.jccl.verbs.WorkCompletion;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Two shm contexts in one JVM ("a" and "b"), each with a domain, one CQ and one queue pair, in a
 * private directory under /dev/shm that must be empty again when the bed closes.
 */
final class ShmTestBed implements AutoCloseable {
    static final long AWAIT_NS = 10_000_000_000L;

    final Path dir;
    final Config config;
    final DeviceContext ctxA;
    final DeviceContext ctxB;
    final ProtectionDomain pdA;
    final ProtectionDomain pdB;
    final CompletionQueue cqA;
    final CompletionQueue cqB;
    final QueuePair qpA;
    final QueuePair qpB;

    ShmTestBed(Map<String, String> knobs, int depth) throws IOException {
        dir = Files.createTempDirectory(Path.of(ShmTestBed.shmRoot()), "jccl-test-");
        Map<String, String> all = new HashMap<>(knobs);
        all.put("JCCL_SHM_DIR", dir.toString());
        config = Config.of(all);
        ctxA = open(config);
        ctxB = open(config);
        pdA = ctxA.allocPd();
        pdB = ctxB.allocPd();
        cqA = ctxA.createCq(4 * depth);
        cqB = ctxB.createCq(4 * depth);
        qpA = pdA.createQp(QpInitAttr.of(cqA, depth));
        qpB = pdB.createQp(QpInitAttr.of(cqB, depth));
    }

    static ShmTestBed connected(Map<String, String> knobs, int depth) throws IOException {
        ShmTestBed bed = new ShmTestBed(knobs, depth);
        bed.connect();
        return bed;
    }

    static String shmRoot() {
        return Files.isDirectory(Path.of("/dev/shm")) ? "/dev/shm" : System.getProperty("java.io.tmpdir");
    }

    static DeviceContext open(Config config) {
        VerbsProvider shm = Providers.require("shm");
        return shm.open(shm.devices(config).getFirst(), config);
    }

    void connect() {
        qpA.modifyToInit();
        qpB.modifyToInit();
        qpA.modifyToRtr(qpB.localInfo());
        qpB.modifyToRtr(qpA.localInfo());
        qpA.modifyToRts();
        qpB.modifyToRts();
    }

    static MemoryRegion shared(ProtectionDomain pd, long bytes, Access... access) {
        MemorySegment seg = pd.allocate(bytes);
        return pd.register(seg, access.length == 0 ? EnumSet.noneOf(Access.class) : EnumSet.of(access[0], access));
    }

    /** Waits (bounded) for exactly one completion and returns a copy of it. */
    static WorkCompletion awaitOne(CompletionQueue cq) {
        WorkCompletion[] wc = WorkCompletion.array(1);
        int n = cq.await(wc, AWAIT_NS);
        if (n != 1) fail("no completion within " + AWAIT_NS / 1_000_000 + " ms");
        return wc[0];
    }

    /** Waits (bounded) until {@code count} completions arrived; returns them in order. */
    static List<WorkCompletion> awaitAll(CompletionQueue cq, int count, long timeoutNs) {
        List<WorkCompletion> out = new ArrayList<>();
        WorkCompletion[] wc = WorkCompletion.array(count);
        long deadline = System.nanoTime() + timeoutNs;
        while (out.size() < count && System.nanoTime() < deadline) {
            int n = cq.await(wc, deadline - System.nanoTime());
            for (int i = 0; i < n; i++) out.add(new WorkCompletion().copyFrom(wc[i]));
        }
        return out;
    }

    /** Asserts the CQ stays empty for a short while. */
    static void assertNoCompletion(CompletionQueue cq) {
        WorkCompletion[] wc = WorkCompletion.array(1);
        assertEquals(0, cq.await(wc, 50_000_000L), () -> "unexpected completion " + wc[0]);
    }

    @Override
    public void close() throws IOException {
        ctxA.close();
        ctxB.close();
        try (Stream<Path> left = Files.list(dir)) {
            List<Path> files = left.toList();
            assertTrue(files.isEmpty(), "files left behind: " + files);
        } finally {
            deleteTree(dir);
        }
    }

    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> left = Files.list(dir)) {
            for (Path p : left.toList()) Files.deleteIfExists(p);
        }
        Files.deleteIfExists(dir);
    }
}
