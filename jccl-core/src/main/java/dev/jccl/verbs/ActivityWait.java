package dev.jccl.verbs;

/**
 * How a thread that drives a context's progress by polling its completion queues may sleep until
 * there is something to poll, rather than for a guessed period ({@link DeviceContext#activityWait}).
 * A socket provider sleeps on its sockets, so the peer's bytes wake the waiter, as in a plain socket
 * ping-pong; a provider whose peers write shared memory has none, since nothing can wake a sleeper.
 */
public interface ActivityWait {
    /**
     * Sleeps at most about {@code ns} (a provider may round up to its timer's resolution, at most a
     * millisecond), returning early once a completion queue of the context got a completion or a
     * socket a poll would read holds bytes; at once if either is so already. May return spuriously.
     */
    void sleep(long ns);

    /** Ends a sleep in progress, for a thread that finished the work a sleeper waits for; cheap when none sleeps. */
    void wakeup();
}
