package dev.jccl.cli.tool.detect;

/**
 * The knee of a sweep: the smallest swept value after which busbw never grows by more than
 * {@code growth} (5% by default) at any larger value. Taking "never again" rather than "the next
 * step" keeps one noisy point from ending the climb early, and recommends the cheapest value that
 * gets within 5% of the best.
 *
 * @param index  position of the knee in the sweep
 * @param reason one line saying why, for the table and the report
 */
public record Knee(int index, String reason) {
    public static final double DEFAULT_GROWTH = 0.05;

    /** The knee of {@code busbw} measured at {@code values} (ascending); {@code growth} is a fraction, e.g. 0.05. */
    public static Knee find(double[] values, double[] busbw, double growth) {
        return find(values, busbw, growth, Knee::fmt);
    }

    /** As above, with {@code show} printing a swept value in the reason (e.g. as a byte size). */
    public static Knee find(double[] values, double[] busbw, double growth, java.util.function.DoubleFunction<String> show) {
        if (values.length != busbw.length || values.length == 0) {
            throw new IllegalArgumentException("a sweep needs one busbw per value, got " + values.length + " and " + busbw.length);
        }
        for (int i = 0; i < busbw.length; i++) {
            double bestAfter = 0;
            int bestAt = -1;
            for (int j = i + 1; j < busbw.length; j++) {
                if (busbw[j] > bestAfter) {
                    bestAfter = busbw[j];
                    bestAt = j;
                }
            }
            if (bestAt < 0 || bestAfter <= busbw[i] * (1 + growth)) {
                String why = bestAt < 0 ? "the largest value swept is the best"
                        : String.format(java.util.Locale.ROOT, "no larger value gains more than %.0f%% (best after it: %s at %s, %+.1f%%)",
                        growth * 100, fmt(bestAfter), show.apply(values[bestAt]), (bestAfter / busbw[i] - 1) * 100);
                return new Knee(i, why);
            }
        }
        throw new AssertionError("the last value always qualifies");
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : String.format(java.util.Locale.ROOT, "%.3g", v);
    }
}
