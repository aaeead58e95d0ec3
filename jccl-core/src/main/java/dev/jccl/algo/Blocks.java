package dev.jccl.algo;

/**
 * An even split of {@code count} elements into {@code parts} contiguous blocks, every element in
 * exactly one block. Blocks are multiples of {@code grain} elements except the one holding the
 * tail; when there are fewer grains than parts the last blocks are empty. The same function cuts a
 * buffer into channels ({@link Channels}) and a channel's slice into per-rank blocks.
 */
public record Blocks(long count, int parts, long grain) {
    public Blocks {
        if (count < 0 || parts < 1 || grain < 1) {
            throw new IllegalArgumentException("blocks of count " + count + " into " + parts + " parts, grain " + grain);
        }
    }

    public static Blocks even(long count, int parts) {
        return new Blocks(count, parts, 1);
    }

    /** Start of block {@code i}; {@code offset(parts)} is {@code count}. */
    public long offset(int i) {
        if (i < 0 || i > parts) throw new IndexOutOfBoundsException("block " + i + " of " + parts);
        long units = (count + grain - 1) / grain;
        long base = units / parts;
        long rem = units % parts;
        // The first rem blocks get one grain more: sizes never differ by more than one grain.
        long unitOffset = i * base + Math.min(i, rem);
        return Math.min(count, unitOffset * grain);
    }

    public long count(int i) {
        return offset(i + 1) - offset(i);
    }

    /** Blocks {@code [from, to)} as one span of {@code buffer}, shifted by {@code base}. */
    public Span span(BufferId buffer, long base, int from, int to) {
        long lo = offset(from);
        return Span.of(buffer, base + lo, offset(to) - lo);
    }

    public Span span(BufferId buffer, long base, int block) {
        return span(buffer, base, block, block + 1);
    }
}
