package dev.jccl.verbs;

/** A scatter-gather entry: local memory as (address, length, lkey), as in {@code ibv_sge}. */
public record Sge(long address, long length, int lkey) {
    public static final Sge EMPTY = new Sge(0, 0, 0);
}
