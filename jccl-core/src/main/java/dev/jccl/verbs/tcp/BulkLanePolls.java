package dev.jccl.verbs.tcp;

/**
 * How often a consumer's poll looks at an idle bulk lane's socket: after {@link #IDLE_POLLS} polls
 * in a row that found no byte there, one poll in {@link #EVERY}; every poll again from the first
 * byte. Lane 0, which carries every message up to 64 KiB, is looked at on every poll.
 *
 * <p>Why: a queue pair of two sockets cost each poll two {@code read} calls, and in a small
 * collective the bulk lane's always came back empty: the spin between the peer's chunk arriving and
 * its being taken was twice as long, and each empty read takes the socket's lock. A bulk frame is
 * over 64 KiB, so seeing it up to three polls late costs a fraction of its transfer. 2 ranks over
 * loopback, five interleaved rounds, 8 B allreduce, median over the rounds of the p50 of single
 * calls: 14.8 µs against 20.9 looking at both sockets on every poll (Open MPI's tcp BTL 12.4);
 * 16 KiB-4 MiB, three rounds, were no slower.
 *
 * <p>Used by consumers only (under the stream's lock): the receiver thread reads what it is given.
 */
final class BulkLanePolls {
    /** Empty polls in a row before the lane is looked at less often. */
    static final int IDLE_POLLS = 8;
    /** While idle, one poll in this many looks. */
    static final int EVERY = 4;

    private int idlePolls;
    private int skipped;

    /** Whether this poll leaves the socket alone. */
    boolean skip() {
        return idlePolls >= IDLE_POLLS && ++skipped % EVERY != 0;
    }

    /** A poll looked at the socket; {@code gotBytes}: it read something. */
    void looked(boolean gotBytes) {
        idlePolls = gotBytes ? 0 : idlePolls + 1;
    }
}
