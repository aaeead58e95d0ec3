package dev.jccl.testkit.debug;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.Jccl;
import dev.jccl.ReduceOp;
import dev.jccl.bootstrap.MemoryStore;
import dev.jccl.testkit.PrivateShmDir;
import dev.jccl.testkit.RankRunner;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One seeded run of the fault campaign: from the seed, hosts (each its own JCCL_HOST_ID), ranks per
 * host, collective, count, checksums on or off, and one fault on one rank; then threads as ranks
 * run the collective a few times (each with other data, so a stale slot cannot pass for a fresh
 * one) and a barrier, each checking its results, under a watchdog at 3x the bound. The outcome:
 * correct (every rank, every result), a clear error (every rank that did not finish correctly failed
 * with a message naming a rank and the operation), a hang, or a wrong result (a rank returned data that is not the reference, or
 * failed without saying who or where).
 */
public final class CampaignRun {
    public enum Outcome { CORRECT, CLEAR_ERROR, HANG, WRONG }

    /** The result and what explains it. */
    public record Result(long seed, Outcome outcome, String setup, String detail) {}

    static final String[] COLLECTIVES = {"allReduce", "broadcast", "reduce", "allGather", "reduceScatter"};
    static final String[] FAULTS = {"drop", "dup", "reorder", "corrupt", "delay", "err", "stall"};
    private static final long TIMEOUT_MS = 1000;
    /** The bound of a run: its ops, a JCCL_TIMEOUT and the failure fan-out (half a timeout, at least 200 ms). */
    private static final long BOUND_MS = 3 * TIMEOUT_MS;
    private static final int ITERATIONS = 3;
    private static final Pattern NAMES_RANK = Pattern.compile("rank \\d+");

    private CampaignRun() {}

    public static Result run(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int hosts = 1 + r.nextInt(3);
        int perHost = 1 + r.nextInt(2);
        int n = Math.max(2, hosts * perHost);
        String inner = hosts == 1 && r.nextBoolean() ? "shm" : "tcp";
        String coll = COLLECTIVES[r.nextInt(COLLECTIVES.length)];
        long count = r.nextInt(20) == 0 ? 1 << 20 : new long[] {1, 7, 1000, 4099, 65_536}[r.nextInt(5)];
        String kind = FAULTS[r.nextInt(FAULTS.length)];
        boolean checksum = kind.equals("corrupt") || r.nextBoolean();
        int victim = r.nextInt(n);
        String fault = switch (kind) {
            case "delay" -> "delay=rank" + victim + ":" + (1 + r.nextInt(5)) + "ms@p0.2";
            case "stall" -> "stall=rank" + victim + ":" + (20 + r.nextInt(80)) + "ms/200ms";
            default -> kind + "=rank" + victim + (r.nextBoolean() ? "@#" + (1 + r.nextInt(24)) : "@p0.05");
        };
        FaultSpec spec = FaultSpec.parse("inner=" + inner + ";seed=" + seed + ";" + fault);
        String setup = n + " ranks on " + hosts + " host(s) over " + inner + ", " + coll + " of " + count + " float32, checksum "
                + (checksum ? "on" : "off") + ", " + fault;
        Map<String, String> knobs = new HashMap<>(Map.of("JCCL_TRANSPORT", DebugProvider.NAME, "JCCL_TIMEOUT", TIMEOUT_MS + "ms",
                "JCCL_CHECKSUM", checksum ? "1" : "0", "JCCL_AUTH_TOKEN", "campaign", "JCCL_DEBUG", "NONE"));
        int ranksPerHost = Math.max(1, n / hosts);
        try (PrivateShmDir dir = PrivateShmDir.create("jccl-campaign-"); MemoryStore store = new MemoryStore()) {
            knobs.put("JCCL_SHM_DIR", dir.toString());
            List<String> perRank = RankRunner.map(n, TimeUnit.MILLISECONDS.toNanos(3 * BOUND_MS), rank -> {
                Map<String, String> k = new HashMap<>(knobs);
                k.put("JCCL_HOST_ID", "campaign-host-" + Math.min(hosts - 1, rank / ranksPerHost));
                Faults.bind(rank, spec);
                try {
                    return rank(CommOptions.builder().rank(rank).size(n).store(store).ignoreEnvironment().knobs(k).build(), coll,
                            count);
                } finally {
                    Faults.unbind();
                }
            });
            return classify(seed, setup, perRank);
        } catch (AssertionError e) {
            // RankRunner's watchdog says "did not finish within"; anything else escaped a rank unexplained.
            boolean hung = String.valueOf(e.getMessage()).contains("did not finish within");
            return new Result(seed, hung ? Outcome.HANG : Outcome.WRONG, setup, e.getMessage());
        }
    }

    /** One rank: "ok", "wrong: ..." or "error: <message>". */
    private static String rank(CommOptions options, String coll, long count) {
        try (Communicator comm = Jccl.init(options)) {
            for (int it = 0; it < ITERATIONS; it++) {
                String wrong = once(comm, coll, count, it);
                if (wrong != null) return "wrong: " + wrong;
            }
            comm.barrier().await();
            return "ok";
        } catch (RuntimeException e) {
            return "error: " + e.getMessage();
        }
    }

    static float value(int rank, long i, int salt) {
        return (float) ((i * 7 + rank * 13 + salt * 5) % 11 - 5);
    }

    /** Runs {@code coll} once and checks this rank's result; null when right. */
    private static String once(Communicator comm, String coll, long count, int salt) {
        int me = comm.rank();
        int n = comm.size();
        int root = salt % n;
        boolean gathers = coll.equals("allGather");
        long inCount = coll.equals("reduceScatter") ? count * n : count;
        long outCount = gathers ? count * n : count;
        Arena arena = Arena.ofAuto();
        MemorySegment in = arena.allocate(4 * inCount, 64);
        MemorySegment out = arena.allocate(4 * outCount, 64);
        for (long i = 0; i < inCount; i++) in.setAtIndex(ValueLayout.JAVA_FLOAT, i, value(me, i, salt));
        switch (coll) {
            case "allReduce" -> comm.allReduce(in, out, count, DataType.FLOAT32, ReduceOp.SUM).await();
            case "broadcast" -> comm.broadcast(in, out, count, DataType.FLOAT32, root).await();
            case "reduce" -> comm.reduce(in, out, count, DataType.FLOAT32, ReduceOp.SUM, root).await();
            case "allGather" -> comm.allGather(in, out, count, DataType.FLOAT32).await();
            default -> comm.reduceScatter(in, out, count, DataType.FLOAT32, ReduceOp.SUM).await();
        }
        if (coll.equals("reduce") && me != root) return null;
        for (long i = 0; i < outCount; i++) {
            float expected = 0;
            switch (coll) {
                case "broadcast" -> expected = value(root, i, salt);
                case "allGather" -> expected = value((int) (i / count), i % count, salt);
                case "reduceScatter" -> { for (int q = 0; q < n; q++) expected += value(q, me * count + i, salt); }
                default -> { for (int q = 0; q < n; q++) expected += value(q, i, salt); }
            }
            float got = out.getAtIndex(ValueLayout.JAVA_FLOAT, i);
            if (Float.floatToRawIntBits(got) != Float.floatToRawIntBits(expected)) {
                return "rank " + me + " iteration " + salt + ": element " + i + " is " + got + ", expected " + expected;
            }
        }
        return null;
    }

    private static Result classify(long seed, String setup, List<String> perRank) {
        List<String> unclear = new ArrayList<>();
        int ok = 0;
        for (int r = 0; r < perRank.size(); r++) {
            String s = perRank.get(r);
            if (s.startsWith("wrong")) return new Result(seed, Outcome.WRONG, setup, s);
            if (s.equals("ok")) ok++;
            else if (!NAMES_RANK.matcher(s).find() || !(s.contains("seq") || s.contains("rank " + r))) unclear.add("rank " + r + " " + s);
        }
        if (ok == perRank.size()) return new Result(seed, Outcome.CORRECT, setup, "");
        if (!unclear.isEmpty()) return new Result(seed, Outcome.WRONG, setup, "unclear error: " + unclear.getFirst());
        // Ranks that finished every operation with the right result before a peer failed (its last
        // chunk to them had left) have nothing wrong to report; every other rank names the failure.
        String mixed = ok > 0 ? "(" + ok + " of " + perRank.size() + " ranks finished correctly first) " : "";
        String firstError = perRank.stream().filter(s -> !s.equals("ok")).findFirst().orElseThrow();
        return new Result(seed, Outcome.CLEAR_ERROR, setup, mixed + firstLine(firstError));
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
