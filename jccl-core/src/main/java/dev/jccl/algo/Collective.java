package dev.jccl.algo;

/**
 * The collectives a schedule can implement, with what {@link CollectiveArgs#count()} counts for
 * each: the elements a rank reduces or broadcasts, or the elements per rank (per peer) where the
 * buffers hold one block per rank.
 */
public enum Collective {
    /** count = elements of INPUT and of OUTPUT. */
    ALL_REDUCE("allReduce"),
    /** count = elements each rank receives; INPUT holds nranks blocks of count. */
    REDUCE_SCATTER("reduceScatter"),
    /** count = elements each rank contributes; OUTPUT holds nranks blocks of count. */
    ALL_GATHER("allGather"),
    /** count = elements of OUTPUT (and of the root's INPUT). */
    BROADCAST("broadcast"),
    /** count = elements of INPUT (and of the root's OUTPUT). */
    REDUCE("reduce"),
    /** count = elements sent to each peer; INPUT and OUTPUT hold nranks blocks of count. */
    ALL_TO_ALL("allToAll"),
    /** count is ignored. */
    BARRIER("barrier");

    private final String apiName;

    Collective(String apiName) {
        this.apiName = apiName;
    }

    /** The name as the public API and the logs spell it, e.g. {@code allReduce}. */
    public String apiName() {
        return apiName;
    }

    public boolean rooted() {
        return this == BROADCAST || this == REDUCE;
    }
}
