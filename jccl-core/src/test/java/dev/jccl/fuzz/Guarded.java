package dev.jccl.fuzz;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A slice of a larger segment with guard bytes on both sides: the slice is what gets registered, the
 * guards are what no peer may ever reach. {@link #intact} reads every guard byte.
 */
public final class Guarded {
    public static final int GUARD_BYTES = 64;
    private static final byte PATTERN = (byte) 0xC5;

    private final MemorySegment whole;
    private final MemorySegment inner;

    /** Guards {@code inner} inside {@code whole}, which must have {@link #GUARD_BYTES} to spare on each side. */
    public Guarded(MemorySegment whole) {
        if (whole.byteSize() < 2L * GUARD_BYTES) throw new IllegalArgumentException("no room for guards: " + whole.byteSize());
        this.whole = whole;
        this.inner = whole.asSlice(GUARD_BYTES, whole.byteSize() - 2L * GUARD_BYTES);
        whole.asSlice(0, GUARD_BYTES).fill(PATTERN);
        whole.asSlice(whole.byteSize() - GUARD_BYTES).fill(PATTERN);
    }

    /** The bytes to allocate for an inner part of {@code bytes}. */
    public static long wholeBytes(long bytes) {
        return bytes + 2L * GUARD_BYTES;
    }

    public MemorySegment inner() {
        return inner;
    }

    public boolean intact() {
        for (long i = 0; i < GUARD_BYTES; i++) {
            if (whole.get(ValueLayout.JAVA_BYTE, i) != PATTERN) return false;
            if (whole.get(ValueLayout.JAVA_BYTE, whole.byteSize() - 1 - i) != PATTERN) return false;
        }
        return true;
    }
}
