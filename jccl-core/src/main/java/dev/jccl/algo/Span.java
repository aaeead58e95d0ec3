package dev.jccl.algo;

import java.util.Objects;

/**
 * A run of {@code count} elements starting at element {@code elemOffset} of a symbolic buffer.
 * Elements, not bytes: the schedule does not know the data type.
 */
public record Span(BufferId buffer, long elemOffset, long count) {
    public Span {
        Objects.requireNonNull(buffer, "buffer");
        if (elemOffset < 0 || count < 0) {
            throw new IllegalArgumentException("span " + buffer + "[" + elemOffset + ", +" + count + ") is negative");
        }
    }

    public static Span of(BufferId buffer, long elemOffset, long count) {
        return new Span(buffer, elemOffset, count);
    }

    public long end() {
        return elemOffset + count;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    /** The part {@code [from, from + n)} of this span, relative to its start. */
    public Span sub(long from, long n) {
        if (from < 0 || n < 0 || from + n > count) {
            throw new IndexOutOfBoundsException("sub [" + from + ", +" + n + ") of " + this);
        }
        return new Span(buffer, elemOffset + from, n);
    }

    @Override
    public String toString() {
        return buffer + "[" + elemOffset + "+" + count + "]";
    }
}
