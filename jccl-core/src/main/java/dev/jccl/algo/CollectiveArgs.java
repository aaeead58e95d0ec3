package dev.jccl.algo;

import java.util.Objects;

/**
 * What every rank asks for: the collective, its count (see {@link Collective} for what it counts)
 * and, for broadcast and reduce, the root rank (0 otherwise).
 */
public record CollectiveArgs(Collective collective, long count, int root) {
    public CollectiveArgs {
        Objects.requireNonNull(collective, "collective");
        if (count < 0) throw new IllegalArgumentException(collective.apiName() + ": negative count " + count);
        if (root < 0) throw new IllegalArgumentException(collective.apiName() + ": negative root " + root);
        if (!collective.rooted() && root != 0) {
            throw new IllegalArgumentException(collective.apiName() + " has no root, got root " + root);
        }
    }

    public static CollectiveArgs of(Collective collective, long count) {
        return new CollectiveArgs(collective, count, 0);
    }

    public static CollectiveArgs rooted(Collective collective, long count, int root) {
        return new CollectiveArgs(collective, count, root);
    }

    /** The element count that channels split: the whole buffer, or one rank's block. */
    public long unitCount() {
        return collective == Collective.BARRIER ? 0 : count;
    }

    void checkRanks(int nranks) {
        if (root >= nranks) {
            throw new IllegalArgumentException(collective.apiName() + ": root " + root + " is not a rank of " + nranks);
        }
    }
}
