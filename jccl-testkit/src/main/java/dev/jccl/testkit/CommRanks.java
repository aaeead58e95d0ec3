package dev.jccl.testkit;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.Jccl;
import dev.jccl.bootstrap.MemoryStore;
import dev.jccl.testkit.debug.DebugProvider;
import dev.jccl.testkit.debug.FaultSpec;
import dev.jccl.testkit.debug.Faults;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Threads as communicator ranks: each rank joins one in-memory store, opens its own provider
 * contexts through {@link Jccl#init(CommOptions)} (the environment ignored, only the knobs given),
 * runs its body and closes its communicator, all under {@link RankRunner}'s hang guard.
 * Shared-memory files go to a {@link PrivateShmDir} removed afterwards. The first rank to fail
 * fails the run, naming its rank; the others are interrupted and not waited for.
 *
 * <pre>{@code
 * List<Long> sums = CommRanks.run(4, CommRanks.knobs("JCCL_TRANSPORT", "tcp"), comm -> ...);
 * }</pre>
 */
public final class CommRanks {
    /** Bound on a whole run; a rank still busy then is reported with where it is stuck. */
    public static final long RUN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(120);
    /** JCCL_TIMEOUT unless a test sets its own: well inside the run's bound, so a stall names its op. */
    public static final String DEFAULT_TIMEOUT = "20s";

    /** What each rank does with its communicator; returns whatever the test compares. */
    @FunctionalInterface
    public interface Body<T> {
        T run(Communicator comm) throws Exception;
    }

    private CommRanks() {}

    /** Runs {@code body} on {@code n} ranks with the same knobs; results indexed by rank. */
    public static <T> List<T> run(int n, Map<String, String> knobs, Body<T> body) {
        return run(n, r -> knobs, body);
    }

    /** Like {@link #run(int, Map, Body)} with knobs per rank (e.g. JCCL_HOST_ID). */
    public static <T> List<T> run(int n, IntFunction<Map<String, String>> knobsOf, Body<T> body) {
        return run(n, knobsOf, null, RUN_TIMEOUT_NS, body);
    }

    /**
     * Like {@link #run(int, IntFunction, Body)} with every rank's traffic through the fault-injecting
     * {@link DebugProvider} (JCCL_TRANSPORT=debug), each rank thread bound to its rank under
     * {@code faults} (which selects ranks itself: {@code delay=rank2:2ms}).
     */
    public static <T> List<T> runWithFaults(int n, IntFunction<Map<String, String>> knobsOf, FaultSpec faults, Body<T> body) {
        return runWithFaults(n, knobsOf, faults, RUN_TIMEOUT_NS, body);
    }

    /** {@link #runWithFaults(int, IntFunction, FaultSpec, Body)} under a bound of its own on the whole run. */
    public static <T> List<T> runWithFaults(int n, IntFunction<Map<String, String>> knobsOf, FaultSpec faults, long runTimeoutNs,
                                            Body<T> body) {
        return run(n, r -> {
            Map<String, String> k = new HashMap<>(knobsOf.apply(r));
            k.put("JCCL_TRANSPORT", DebugProvider.NAME);
            return k;
        }, faults, runTimeoutNs, body);
    }

    private static <T> List<T> run(int n, IntFunction<Map<String, String>> knobsOf, FaultSpec faults, long runTimeoutNs, Body<T> body) {
        try (PrivateShmDir dir = PrivateShmDir.create("jccl-comm-"); MemoryStore store = new MemoryStore()) {
            return RankRunner.map(n, runTimeoutNs, rank -> {
                Map<String, String> k = new HashMap<>(knobsOf.apply(rank));
                k.putIfAbsent("JCCL_SHM_DIR", dir.toString());
                k.putIfAbsent("JCCL_TIMEOUT", DEFAULT_TIMEOUT);
                CommOptions options = CommOptions.builder().rank(rank).size(n).store(store).ignoreEnvironment().knobs(k).build();
                if (faults != null) Faults.bind(rank, faults);
                try (Communicator comm = Jccl.init(options)) {
                    return body.run(comm);
                } finally {
                    if (faults != null) Faults.unbind();
                }
            });
        }
    }

    /** {@code knobs("JCCL_TRANSPORT", "tcp", "JCCL_TIMEOUT", "5s")}: pairs of name and value. */
    public static Map<String, String> knobs(String... nameValuePairs) {
        if (nameValuePairs.length % 2 != 0) throw new IllegalArgumentException("knobs come in name, value pairs");
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < nameValuePairs.length; i += 2) m.put(nameValuePairs[i], nameValuePairs[i + 1]);
        return m;
    }
}
