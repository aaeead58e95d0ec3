package dev.jccl.cli.perf.coll;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Tag("unit")
class JitActivityTest {
    @Test
    void aRoundIsQuietWhenTheCompilersWorkedAtMostTwoPercentOfIt() {
        assertTrue(JitActivity.quiet(0, 50_000_000));
        assertTrue(JitActivity.quiet(1_000_000, 50_000_000));
        assertFalse(JitActivity.quiet(1_000_001, 50_000_000));
        assertFalse(JitActivity.quiet(3_000_000_000L, 50_000_000), "compiler threads can add up to more than the wall time");
        assertTrue(JitActivity.quiet(-5_000_000, 50_000_000), "a retired compiler thread's time leaving the sum is no compiling");
    }

    @Test
    void onLinuxTheCompilerThreadsOwnRunTimeIsRead() {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux's /proc");
        long sum = 0;
        for (int i = 0; i < 200_000; i++) sum += Integer.toString(i).hashCode(); // gives the JIT something to do
        long ns = JitActivity.compilerThreadsNs();
        assertTrue(sum != 1 && ns > 0, "compiler threads' run time: " + ns);
        assertTrue(JitActivity.compileNs() >= ns, "the live figure is the one used, and it only grows while the threads live");
    }
}
