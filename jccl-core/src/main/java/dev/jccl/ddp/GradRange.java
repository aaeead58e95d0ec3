package dev.jccl.ddp;

/**
 * Elements [{@code fromElem}, {@code toElem}) of parameter {@code name} whose averaged gradient this
 * rank holds and whose value it updates.
 */
public record GradRange(String name, long fromElem, long toElem) {
    public GradRange {
        if (fromElem < 0 || toElem < fromElem) {
            throw new IllegalArgumentException("bad range [" + fromElem + ", " + toElem + ") of " + name);
        }
    }

    public long elements() {
        return toElem - fromElem;
    }
}
