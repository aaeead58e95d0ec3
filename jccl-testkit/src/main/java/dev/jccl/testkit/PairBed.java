package dev.jccl.testkit;

import dev.jccl.config.Config;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.VerbsProvider;
import dev.jccl.verbs.WorkCompletion;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Two ranks of one provider in one JVM, driven from one thread: an {@link EndpointPair} whose ends
 * ("a" and "b") have one completion queue each, for sends and receives alike, and whose files go
 * to a {@link PrivateShmDir} that must be empty again once both ends have closed, so a provider
 * that leaks a file fails {@link #close()}. Skips the test, saying why, where the provider cannot
 * run here.
 *
 * <p>The fields are the bed's parts, for tests that poke at each directly (provider tests in the
 * provider's own package). For ranks on threads of their own use {@link RankHarness}.
 */
public final class PairBed implements AutoCloseable {
    public static final long AWAIT_NS = 10_000_000_000L;

    public final PrivateShmDir dir;
    public final Config config;
    public final DeviceContext ctxA;
    public final DeviceContext ctxB;
    public final ProtectionDomain pdA;
    public final ProtectionDomain pdB;
    public final CompletionQueue cqA;
    public final CompletionQueue cqB;
    public final QueuePair qpA;
    public final QueuePair qpB;
    private final EndpointPair pair;

    private PairBed(PrivateShmDir dir, ProviderTarget target, int depth) {
        this.dir = dir;
        this.config = target.config();
        this.pair = EndpointPair.openWithOneCq(target, new EndpointPair.Options(4 * depth, depth, depth));
        ctxA = pair.a().context();
        ctxB = pair.b().context();
        pdA = pair.a().pd();
        pdB = pair.b().pd();
        cqA = pair.a().sends().queue();
        cqB = pair.b().sends().queue();
        qpA = pair.a().qp();
        qpB = pair.b().qp();
    }

    /** Both ends opened, their queue pairs in RESET, with {@code depth} sends and receives each. */
    public static PairBed open(String provider, Map<String, String> knobs, int depth) {
        PrivateShmDir dir = PrivateShmDir.create("jccl-test-");
        try {
            Map<String, String> all = new HashMap<>(knobs);
            all.put("JCCL_SHM_DIR", dir.toString());
            return new PairBed(dir, ProviderTarget.of(provider, all, ProviderTarget.PrivateMemoryRule.EITHER), depth);
        } catch (RuntimeException | Error e) {
            dir.close();
            throw e;
        }
    }

    /** Both ends opened and connected (RTS). */
    public static PairBed connected(String provider, Map<String, String> knobs, int depth) {
        PairBed bed = open(provider, knobs, depth);
        try {
            bed.connect();
        } catch (RuntimeException | Error e) {
            bed.close();
            throw e;
        }
        return bed;
    }

    /** A context on the first device of {@code provider}. */
    public static DeviceContext openContext(String provider, Config config) {
        VerbsProvider p = Providers.require(provider);
        return p.open(p.devices(config).getFirst(), config);
    }

    /** Both queue pairs to RTS (see {@link EndpointPair#connect}). */
    public void connect() {
        EndpointPair.connect(qpA, qpB, EndpointPair.CONNECT_TIMEOUT_NS);
    }

    /** {@code bytes} of shareable memory from {@code pd}, registered with {@code access}. */
    public static MemoryRegion shared(ProtectionDomain pd, long bytes, Access... access) {
        MemorySegment seg = pd.allocate(bytes);
        return pd.register(seg, access.length == 0 ? EnumSet.noneOf(Access.class) : EnumSet.of(access[0], access));
    }

    /** Waits (bounded) for exactly one completion and returns it. */
    public static WorkCompletion awaitOne(CompletionQueue cq) {
        WorkCompletion[] wc = WorkCompletion.array(1);
        int n = cq.await(wc, AWAIT_NS);
        if (n != 1) throw new AssertionError("no completion within " + AWAIT_NS / 1_000_000 + " ms");
        return wc[0];
    }

    /** Waits until {@code count} completions arrived or {@code timeoutNs} passed; returns copies, in order. */
    public static List<WorkCompletion> awaitAll(CompletionQueue cq, int count, long timeoutNs) {
        List<WorkCompletion> out = new ArrayList<>();
        WorkCompletion[] wc = WorkCompletion.array(count);
        long deadline = System.nanoTime() + timeoutNs;
        while (out.size() < count && System.nanoTime() < deadline) {
            int n = cq.await(wc, deadline - System.nanoTime());
            for (int i = 0; i < n; i++) out.add(new WorkCompletion().copyFrom(wc[i]));
        }
        return out;
    }

    /** Fails if a completion arrives within 50 ms. */
    public static void assertNoCompletion(CompletionQueue cq) {
        WorkCompletion[] wc = WorkCompletion.array(1);
        int n = cq.await(wc, 50_000_000L);
        if (n != 0) throw new AssertionError("unexpected completion " + wc[0]);
    }

    /** Closes both ends, then fails if they left files behind; the folder goes either way. */
    @Override
    public void close() {
        try {
            pair.close();
            List<Path> left = dir.files();
            if (!left.isEmpty()) throw new AssertionError("files left behind: " + left);
        } finally {
            dir.close();
        }
    }
}
