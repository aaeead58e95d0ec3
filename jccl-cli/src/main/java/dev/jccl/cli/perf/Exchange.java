package dev.jccl.cli.perf;

/**
 * How the two sides of a perf test swap small blobs (connection info, results) and line up between
 * sizes. Over processes it is the bootstrap store; in tests, memory.
 */
public interface Exchange {
    /** Publishes {@code mine} under {@code key} and returns what the peer published under it. Bounded. */
    byte[] swap(String key, byte[] mine);

    /** Returns when both sides reached the barrier named {@code key}. Bounded. */
    default void barrier(String key) {
        swap("barrier/" + key, new byte[0]);
    }
}
