package dev.jccl.util;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
@Tag("unit")
class HostLoadTest {
    @Test
    void runnableThreadsAreReadFromTheFourthField() {
        assertTrue(HostLoad.runnableAtMost("0.52 0.61 0.70 2/311 48102\n", 2));
        assertTrue(HostLoad.runnableAtMost("0.52 0.61 0.70 1/311 48102", 8));
        assertFalse(HostLoad.runnableAtMost("7.10 6.61 6.70 9/311 48102", 2));
    }

    @Test
    void anUnreadableLoadLineMeansNoIdleCores() {
        assertFalse(HostLoad.runnableAtMost("", 2));
        assertFalse(HostLoad.runnableAtMost("0.1 0.2 0.3", 2));
        assertFalse(HostLoad.runnableAtMost("0.1 0.2 0.3 /5 1", 2));
    }
}
