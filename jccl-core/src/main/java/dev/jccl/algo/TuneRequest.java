package dev.jccl.algo;

import java.util.Objects;

/**
 * What the tuner is asked: a collective, its size in bytes, and who takes part. {@code bytes} is
 * the largest buffer a rank touches: the buffer for allReduce, broadcast and reduce; the whole
 * INPUT for reduceScatter and allToAll; the whole OUTPUT for allGather; 0 for a barrier.
 */
public record TuneRequest(Collective collective, long bytes, HostTopology topology) {
    public TuneRequest {
        Objects.requireNonNull(collective, "collective");
        Objects.requireNonNull(topology, "topology");
        if (bytes < 0) throw new IllegalArgumentException(collective.apiName() + ": negative size " + bytes + " bytes");
    }
}
