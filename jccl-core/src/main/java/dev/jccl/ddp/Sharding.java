package dev.jccl.ddp;

/** How the averaged gradient is laid out across ranks after communication. */
public enum Sharding {
    /** Every bucket is all-reduced: each rank holds the whole averaged gradient and steps every parameter. */
    REPLICATED,
    /**
     * Every bucket but the last is reduce-scattered: each rank holds the averaged gradient of its shard
     * of each bucket, steps only those elements ({@link DistributedDataParallel#ownedRanges()}) and then
     * all-gathers the parameters ({@link DistributedDataParallel#syncParameters()}). The last bucket is
     * all-reduced, because it carries the shards' sum of squares and the overflow flag of everything
     * before it: clipping and overflow checks need no collective of their own.
     */
    REDUCE_SCATTER
}
