package dev.jccl.algo;

import java.util.Objects;

/**
 * Copy {@code from} into {@code into} on this rank (an out-of-place call's own block). When the
 * call is in place both spans may resolve to the same memory; the executor then skips it.
 */
public record LocalCopy(Span from, Span into) {
    public LocalCopy {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(into, "into");
        if (from.count() != into.count()) {
            throw new IllegalArgumentException("copy " + from + " -> " + into + ": counts differ");
        }
    }

    @Override
    public String toString() {
        return "copy " + from + " -> " + into;
    }
}
