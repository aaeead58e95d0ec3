package dev.jccl.cli.perf.coll;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("unit")
class JitActivityTest {
    @Test
    void aRoundIsQuietWhenTheCompilersWorkedAtMostTwoPercentOfIt() {
        assertTrue(JitActivity.quiet(0, 50_000_000));
        assertTrue(JitActivity.quiet(1_000_000, 50_000_000));
        assertFalse(JitActivity.quiet(1_000_001, 50_000_000));
        assertFalse(JitActivity.quiet(3_000_000_000L, 50_000_000), "compiler threads can add up to more than the wall time");
    }

    @Test
    void compileTimeNeverGoesBack() {
        long before = JitActivity.compileNs();
        long sum = 0;
        for (int i = 0; i < 200_000; i++) sum += Integer.toString(i).hashCode(); // gives the JIT something to do
        assertTrue(sum != 1 && JitActivity.compileNs() >= before && before >= 0);
    }
}
