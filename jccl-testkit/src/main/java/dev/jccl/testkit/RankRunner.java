package dev.jccl.testkit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs one task per rank, each on its own thread, with a hang guard: every rank must finish within
 * the timeout. The first rank to fail is reported at once with its rank number and cause (other
 * ranks, perhaps waiting for it, are interrupted and not waited for); a rank still running at the
 * deadline is reported with where it is stuck.
 *
 * <p>Rank threads are daemons, so a rank stuck beyond recall cannot keep the test JVM alive.
 */
public final class RankRunner {
    /** The body each rank runs. */
    @FunctionalInterface
    public interface RankTask {
        void run(int rank) throws Exception;
    }

    /** The body of a rank that returns what the test compares. */
    @FunctionalInterface
    public interface RankFunction<T> {
        T apply(int rank) throws Exception;
    }

    private record Outcome(int rank, Throwable failure) {}

    private RankRunner() {}

    public static void run(int ranks, long timeoutNs, RankTask task) {
        if (ranks < 1) throw new IllegalArgumentException("need at least one rank, got " + ranks);
        LinkedBlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
        Thread[] threads = new Thread[ranks];
        for (int r = 0; r < ranks; r++) {
            int rank = r;
            threads[r] = Thread.ofPlatform().name("rank-" + r).daemon().unstarted(() -> {
                Throwable failure = null;
                try {
                    task.run(rank);
                } catch (Throwable t) {
                    failure = t;
                }
                outcomes.add(new Outcome(rank, failure));
            });
        }
        for (Thread t : threads) t.start();
        long deadline = System.nanoTime() + timeoutNs;
        boolean[] finished = new boolean[ranks];
        for (int done = 0; done < ranks; done++) {
            Outcome o;
            try {
                o = outcomes.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                interruptAll(threads);
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for ranks", e);
            }
            if (o == null) throw hung(threads, finished, timeoutNs);
            finished[o.rank()] = true;
            if (o.failure() != null) {
                interruptAll(threads);
                throw new AssertionError("rank " + o.rank() + " of " + ranks + " failed: " + o.failure(), o.failure());
            }
        }
    }

    /** Bound of {@link #map(int, RankFunction)}: generous for a loaded machine, still well inside a test's timeout. */
    public static final long DEFAULT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    /** {@link #map(int, long, RankFunction)} bounded by {@link #DEFAULT_TIMEOUT_NS}. */
    public static <T> List<T> map(int ranks, RankFunction<T> body) {
        return map(ranks, DEFAULT_TIMEOUT_NS, body);
    }

    /** Like {@link #run}, collecting each rank's result, indexed by rank. */
    public static <T> List<T> map(int ranks, long timeoutNs, RankFunction<T> body) {
        List<T> results = Collections.synchronizedList(new ArrayList<>(Collections.nCopies(ranks, null)));
        run(ranks, timeoutNs, rank -> results.set(rank, body.apply(rank)));
        return new ArrayList<>(results);
    }

    private static AssertionError hung(Thread[] threads, boolean[] finished, long timeoutNs) {
        List<Integer> stuck = new ArrayList<>();
        StringBuilder where = new StringBuilder();
        for (int r = 0; r < threads.length; r++) {
            if (finished[r]) continue;
            stuck.add(r);
            where.append("\n  rank ").append(r).append(" at:");
            Arrays.stream(threads[r].getStackTrace()).limit(12).forEach(f -> where.append("\n    ").append(f));
        }
        interruptAll(threads);
        return new AssertionError("ranks " + stuck + " of " + threads.length + " did not finish within "
                + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms" + where);
    }

    private static void interruptAll(Thread[] threads) {
        for (Thread t : threads) t.interrupt();
    }
}
