package dev.jccl.fuzz;

import java.util.SplittableRandom;

/**
 * The loop every fuzz property runs: try {@code i} gets seed {@code base + i}, so one failing try
 * replays alone from the seed its failure names. The base seed is new each run unless
 * {@code -Dfuzz.seed=S} fixes it; {@code -Dfuzz.tries=N} sets every property's number of tries
 * (N = 1 with the seed of a failure replays that try; a large N fuzzes longer).
 */
public final class Tries {
    /** The base seed of this run (one per test JVM), printed by every property so its run can be repeated. */
    public static final long BASE_SEED = Long.getLong("fuzz.seed", new SplittableRandom().nextLong());

    /** One try of a property, given its seed. */
    @FunctionalInterface
    public interface Try {
        void run(long seed) throws Exception;
    }

    private Tries() {}

    /** How many tries a property that asks for {@code tries} runs: {@code -Dfuzz.tries} wins when set. */
    public static int count(int tries) {
        return Integer.getInteger("fuzz.tries", tries);
    }

    /** Runs {@link #count}({@code tries}) tries; the first to fail ends the loop, with its seed and index in the message. */
    public static void run(int tries, Try body) {
        int n = count(tries);
        System.out.println("fuzz seed " + BASE_SEED + ", " + n + " tries (-Dfuzz.seed=" + BASE_SEED + " repeats them)");
        for (int i = 0; i < n; i++) {
            long seed = BASE_SEED + i;
            try {
                body.run(seed);
            } catch (Exception | AssertionError e) {
                throw new AssertionError("try " + i + " of " + n + " failed with seed " + seed + " (replay it alone: -Dfuzz.seed=" + seed
                        + " -Dfuzz.tries=1): " + e.getMessage(), e);
            }
        }
    }
}
