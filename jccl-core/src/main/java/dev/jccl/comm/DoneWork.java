package dev.jccl.comm;

import dev.jccl.JcclException;
import dev.jccl.Work;

import java.time.Duration;
import java.util.Optional;

/**
 * The handle of a call its caller ran to the end before the call returned ({@link InlineCalls}):
 * done and successful, so there is nothing to wait for. One per communicator, shared by every such
 * call, so that a small allreduce allocates nothing; {@link #seq()} is the latest of those calls'.
 */
final class DoneWork implements Work {
    private volatile long seq;

    void seq(long s) {
        seq = s;
    }

    @Override public long seq() { return seq; }
    @Override public boolean isDone() { return true; }
    @Override public void await() { }
    @Override public boolean await(Duration timeout) { return true; }
    @Override public Optional<JcclException> exception() { return Optional.empty(); }

    @Override
    public String toString() {
        return "Work{seq=" + seq + ", done inline}";
    }
}
