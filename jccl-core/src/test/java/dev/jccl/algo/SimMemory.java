package dev.jccl.algo;

import java.util.Arrays;

/**
 * One simulated rank's INPUT and OUTPUT, laid out as a {@link Placement} says: two arrays, or one
 * array both buffers view (in place). OUTPUT starts as poison so an element no step writes is
 * caught; SCRATCH lives in the simulator, one array per channel.
 */
final class SimMemory {
    static final long POISON = 0x7ff4_dead_beef_0000L;

    private final Placement placement;
    private final long[] inputSpace;
    private final long[] outputSpace;
    private final long inputElems;
    private final long outputElems;

    SimMemory(Placement placement, long[] input, long outputElems) {
        this.placement = placement;
        this.inputElems = input.length;
        this.outputElems = outputElems;
        if (placement.shared()) {
            long size = Math.max(placement.inputBase() + inputElems, placement.outputBase() + outputElems);
            inputSpace = new long[Math.toIntExact(size)];
            Arrays.fill(inputSpace, POISON);
            System.arraycopy(input, 0, inputSpace, (int) placement.inputBase(), input.length);
            outputSpace = inputSpace;
        } else {
            inputSpace = input.clone();
            outputSpace = new long[Math.toIntExact(outputElems)];
            Arrays.fill(outputSpace, POISON);
        }
    }

    Placement placement() {
        return placement;
    }

    long get(Span s, long i, long[] scratch) {
        return array(s.buffer(), scratch)[index(s, i)];
    }

    void set(Span s, long i, long value, long[] scratch) {
        array(s.buffer(), scratch)[index(s, i)] = value;
    }

    long[] read(Span s, long[] scratch) {
        long[] out = new long[Math.toIntExact(s.count())];
        for (int i = 0; i < out.length; i++) out[i] = get(s, i, scratch);
        return out;
    }

    /** COPY or REDUCE {@code incoming} into {@code into} (operand first unless {@code incomingFirst}). */
    void apply(Span into, Span operand, boolean incomingFirst, long[] incoming, Arith arith, long[] scratch) {
        for (int i = 0; i < incoming.length; i++) {
            long v = operand == null ? incoming[i]
                    : incomingFirst ? arith.combine(incoming[i], get(operand, i, scratch))
                    : arith.combine(get(operand, i, scratch), incoming[i]);
            set(into, i, v, scratch);
        }
    }

    long[] output() {
        return view(outputSpace, placement.shared() ? placement.outputBase() : 0, outputElems);
    }

    long[] input() {
        return view(inputSpace, placement.shared() ? placement.inputBase() : 0, inputElems);
    }

    private static long[] view(long[] a, long base, long n) {
        return Arrays.copyOfRange(a, (int) base, (int) (base + n));
    }

    private long[] array(BufferId b, long[] scratch) {
        return switch (b) {
            case INPUT -> inputSpace;
            case OUTPUT -> outputSpace;
            case SCRATCH -> scratch;
        };
    }

    private int index(Span s, long i) {
        return Math.toIntExact(placement.address(s.buffer(), s.elemOffset() + i));
    }
}
