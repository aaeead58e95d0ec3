package dev.jccl.cli.tool;

/** The outcome of one check; a tool exits non-zero when any of its findings is {@link #FAIL}. */
public enum Verdict {
    OK, WARN, FAIL;

    public Verdict worst(Verdict other) {
        return other.ordinal() > ordinal() ? other : this;
    }
}
