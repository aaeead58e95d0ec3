package dev.jccl.testkit.debug;

import dev.jccl.testkit.debug.FaultSpec.Fault;
import dev.jccl.testkit.debug.FaultSpec.Kind;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.SendWr;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The decisions of one rank's faults: for each send request, which fault (if any) strikes it, and
 * whether the rank is inside a stall now. One per opened context; thread-safe (decisions are
 * serialized, so a seed gives the same sequence of decisions for the same sequence of requests).
 */
final class Injector {
    /** What happens to one request: a kind (null = passes) and, for DELAY, how long. */
    record Decision(Kind kind, long delayNs) {
        static final Decision PASS = new Decision(null, 0);
    }

    private final int rank;
    private final List<Fault> faults;
    private final long[] eligibleSeen;
    private final SplittableRandom random;
    private final Fault stall;
    private final long startNs = System.nanoTime();
    private final AtomicLongArray fired = new AtomicLongArray(Kind.values().length);

    Injector(int rank, FaultSpec spec) {
        this.rank = rank;
        this.faults = spec.forRank(rank).stream().filter(f -> f.kind() != Kind.STALL).toList();
        this.stall = spec.forRank(rank).stream().filter(f -> f.kind() == Kind.STALL).findFirst().orElse(null);
        this.eligibleSeen = new long[faults.size()];
        this.random = new SplittableRandom(spec.seed() * 1_000_003L + rank);
    }

    int rank() {
        return rank;
    }

    boolean active() {
        return !faults.isEmpty() || stall != null;
    }

    /** Whether some fault may hold requests back (so the context needs its release timer). */
    boolean holds() {
        return faults.stream().anyMatch(f -> f.kind() == Kind.DELAY || f.kind() == Kind.REORDER);
    }

    /** The fault striking {@code wr}, the first that fires in spec order. */
    synchronized Decision decide(SendWr wr) {
        for (int i = 0; i < faults.size(); i++) {
            Fault f = faults.get(i);
            if (!eligible(f.kind(), wr)) continue;
            long seen = ++eligibleSeen[i];
            boolean fires = f.nth() < 0 || (f.nth() == 0 ? random.nextDouble() < f.probability() : seen == f.nth());
            if (fires) {
                fired.incrementAndGet(f.kind().ordinal());
                return new Decision(f.kind(), f.argNs());
            }
        }
        return Decision.PASS;
    }

    private static boolean eligible(Kind kind, SendWr wr) {
        boolean write = wr.opcode() == Opcode.RDMA_WRITE || wr.opcode() == Opcode.RDMA_WRITE_WITH_IMM;
        return switch (kind) {
            case DROP, DUP, REORDER -> write;
            case CORRUPT -> wr.opcode() != Opcode.RDMA_READ && wr.length() > 0;
            default -> true;
        };
    }

    /** A random bit to flip in a payload of {@code bytes}. */
    synchronized long bitToFlip(long bytes) {
        return random.nextLong(bytes * 8);
    }

    /** Sleeps out the rest of a stall window if the rank is inside one (T at the start of every period P, from the open). */
    void stallIfDue() {
        if (stall == null) return;
        long phase = (System.nanoTime() - startNs) % stall.periodNs();
        if (phase >= stall.argNs()) return;
        long left = stall.argNs() - phase;
        fired.incrementAndGet(Kind.STALL.ordinal());
        try {
            TimeUnit.NANOSECONDS.sleep(left);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** How often each kind struck so far (stalls: how many waits fell inside a stall). */
    Map<Kind, Long> fired() {
        Map<Kind, Long> m = new EnumMap<>(Kind.class);
        for (Kind k : Kind.values()) if (fired.get(k.ordinal()) > 0) m.put(k, fired.get(k.ordinal()));
        return m;
    }
}
