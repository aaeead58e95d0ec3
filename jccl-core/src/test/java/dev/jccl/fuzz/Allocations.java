package dev.jccl.fuzz;

import java.lang.management.ManagementFactory;

/**
 * Bytes the current thread has allocated on the heap so far, so a property can assert that a
 * length field read from the wire was not believed: a 2 GiB length must not cost 2 GiB.
 */
public final class Allocations {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Allocations() {}

    public static long ofCurrentThread() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }
}
