package dev.jccl.comm;

import dev.jccl.algo.Collective;

/** Every operation a communicator runs, with the collective a schedule implements it by (none for point to point). */
enum OpKind {
    ALL_REDUCE(Collective.ALL_REDUCE),
    REDUCE_SCATTER(Collective.REDUCE_SCATTER),
    ALL_GATHER(Collective.ALL_GATHER),
    BROADCAST(Collective.BROADCAST),
    REDUCE(Collective.REDUCE),
    ALL_TO_ALL(Collective.ALL_TO_ALL),
    BARRIER(Collective.BARRIER),
    SEND(null),
    RECV(null);

    private final Collective collective;

    OpKind(Collective collective) {
        this.collective = collective;
    }

    Collective collective() {
        return collective;
    }

    boolean pointToPoint() {
        return collective == null;
    }

    boolean reduces() {
        return this == ALL_REDUCE || this == REDUCE_SCATTER || this == REDUCE;
    }

    boolean rooted() {
        return this == BROADCAST || this == REDUCE;
    }

    /** The API name: allReduce, send, ... */
    String apiName() {
        return collective != null ? collective.apiName() : this == SEND ? "send" : "recv";
    }

    static OpKind byApiName(String name) {
        for (OpKind k : values()) if (k.apiName().equals(name)) return k;
        throw new IllegalArgumentException("unknown operation '" + name + "'");
    }
}
