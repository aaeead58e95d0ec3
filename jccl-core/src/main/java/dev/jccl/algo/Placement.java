package dev.jccl.algo;

/**
 * Where INPUT and OUTPUT lie relative to each other, which is what decides whether two spans of
 * different buffers overlap. Out of place they are distinct memory. In place they are views of one
 * array: INPUT starts at element {@code inputBase} of it and OUTPUT at {@code outputBase}.
 * SCRATCH never overlaps either.
 */
public record Placement(boolean shared, long inputBase, long outputBase) {
    public static final Placement DISTINCT = new Placement(false, 0, 0);

    public Placement {
        if (inputBase < 0 || outputBase < 0) throw new IllegalArgumentException("negative base " + inputBase + ", " + outputBase);
    }

    /**
     * The in-place layout of {@code args} on {@code rank}, with the usual conventions: allGather's
     * INPUT is this rank's block of OUTPUT, reduceScatter's OUTPUT is this rank's block of INPUT,
     * and broadcast/reduce share memory only at the root (the one rank holding both buffers).
     */
    public static Placement inPlace(CollectiveArgs args, int rank) {
        long block = rank * args.count();
        return switch (args.collective()) {
            case ALL_REDUCE -> new Placement(true, 0, 0);
            case ALL_GATHER -> new Placement(true, block, 0);
            case REDUCE_SCATTER -> new Placement(true, 0, block);
            case BROADCAST, REDUCE -> rank == args.root() ? new Placement(true, 0, 0) : DISTINCT;
            case BARRIER -> DISTINCT;
            case ALL_TO_ALL -> throw new IllegalArgumentException("allToAll cannot run in place: its blocks move between ranks in both directions");
        };
    }

    /** A number naming the memory {@code buffer} lives in: equal numbers may overlap. */
    public int space(BufferId buffer) {
        return switch (buffer) {
            case INPUT -> 0;
            case OUTPUT -> shared ? 0 : 1;
            case SCRATCH -> 2;
        };
    }

    /** Element index of {@code elemOffset} of {@code buffer} within its {@link #space}. */
    public long address(BufferId buffer, long elemOffset) {
        return switch (buffer) {
            case INPUT -> shared ? inputBase + elemOffset : elemOffset;
            case OUTPUT -> shared ? outputBase + elemOffset : elemOffset;
            case SCRATCH -> elemOffset;
        };
    }
}
