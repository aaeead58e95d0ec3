package dev.jccl.fuzz;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many inputs each fuzz target was given, and how many of them it refused; printed when a
 * property class ends, so a run says what it threw at what ("fuzz store-decoder: 40000 frames, 39870
 * refused"). Process-wide; each target is named by the class that fuzzes it.
 */
public final class FuzzCount {
    private static final Map<String, AtomicLong[]> COUNTS = new TreeMap<>();

    private FuzzCount() {}

    private static synchronized AtomicLong[] of(String target) {
        return COUNTS.computeIfAbsent(target, t -> new AtomicLong[] {new AtomicLong(), new AtomicLong()});
    }

    /** One input given to {@code target}, refused or taken. */
    public static void record(String target, boolean refused) {
        AtomicLong[] c = of(target);
        c[0].incrementAndGet();
        if (refused) c[1].incrementAndGet();
    }

    public static long frames(String target) {
        return of(target)[0].get();
    }

    public static long refused(String target) {
        return of(target)[1].get();
    }

    /** The line a property class prints when it ends. */
    public static String report(String target) {
        String line = "fuzz " + target + ": " + frames(target) + " frames, " + refused(target) + " refused";
        System.out.println(line);
        return line;
    }
}
