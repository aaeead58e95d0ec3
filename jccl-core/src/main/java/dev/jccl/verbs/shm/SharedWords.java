package dev.jccl.verbs.shm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * Atomic access to 4- and 8-byte words of mapped files that several processes share.
 *
 * <p>The JVM's acquire/release/volatile modes on a native segment compile to the same instructions
 * as on the heap, and the hardware orders them the same way whether the other party is a thread of
 * this process or of another one mapping the same pages. Every offset passed here is naturally
 * aligned (the descriptors check this once).
 */
final class SharedWords {
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private SharedWords() {}

    static int getIntAcquire(MemorySegment s, long offset) {
        return (int) INT.getAcquire(s, offset);
    }

    static void setIntRelease(MemorySegment s, long offset, int value) {
        INT.setRelease(s, offset, value);
    }

    static int getIntVolatile(MemorySegment s, long offset) {
        return (int) INT.getVolatile(s, offset);
    }

    static void setIntVolatile(MemorySegment s, long offset, int value) {
        INT.setVolatile(s, offset, value);
    }

    /** Full fence on both sides, like a volatile read and write together. */
    static int getAndAddInt(MemorySegment s, long offset, int delta) {
        return (int) INT.getAndAdd(s, offset, delta);
    }

    static long getLongAcquire(MemorySegment s, long offset) {
        return (long) LONG.getAcquire(s, offset);
    }

    static void setLongRelease(MemorySegment s, long offset, long value) {
        LONG.setRelease(s, offset, value);
    }

    static long getLongVolatile(MemorySegment s, long offset) {
        return (long) LONG.getVolatile(s, offset);
    }
}
