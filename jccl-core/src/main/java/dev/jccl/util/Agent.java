package dev.jccl.util;

/**
 * A unit of progress that some thread runs over and over: one pass of {@link #doWork()} does what
 * can be done now without blocking and says how much that was, so that whoever runs it can feed the
 * count to its {@link IdleStrategy} (work resets the back-off, none advances it). Which thread runs
 * an agent, and how it idles between passes, is decided by {@link WaitPolicy}.
 */
public interface Agent {
    /** One pass; returns the amount of work done, 0 when there was nothing to do. Never blocks. */
    int doWork();

    /** A short name for this agent's role, used to name the thread that runs it. */
    String roleName();
}
