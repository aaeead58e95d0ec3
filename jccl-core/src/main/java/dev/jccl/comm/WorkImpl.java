package dev.jccl.comm;

import dev.jccl.CommTimeoutException;
import dev.jccl.JcclException;
import dev.jccl.Work;
import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.Deadline;

import java.time.Duration;
import java.util.Optional;

/**
 * The caller's handle on one operation. Completion is a volatile write by the progress thread
 * after the operation's last effect (data applied, arrays copied out), so a caller that sees
 * {@link #isDone()} sees the results. A waiting caller runs the communicator's progress itself
 * (under the engine's progress lock) instead of waiting for the agent thread to be scheduled.
 */
final class WorkImpl implements Work {
    private final CommEngine engine;
    private final long seq;
    private volatile boolean done;
    private volatile JcclException failure;

    WorkImpl(CommEngine engine, long seq) {
        this.engine = engine;
        this.seq = seq;
    }

    @Override
    public long seq() {
        return seq;
    }

    @Override
    public boolean isDone() {
        return done;
    }

    void complete() {
        done = true;
        engine.operationFinished();
    }

    void fail(JcclException e) {
        failure = e;
        done = true;
        engine.operationFinished();
    }

    @Override
    public void await() {
        if (!waitUntil(null)) {
            throw new CommTimeoutException("rank " + engine.rank() + ": seq " + seq + " is still waiting after the communicator made no"
                    + " progress for JCCL_TIMEOUT; " + engine.describeStall());
        }
    }

    @Override
    public boolean await(Duration timeout) {
        return waitUntil(Deadline.after(timeout.toNanos()));
    }

    /**
     * Waits until done (throwing its failure) or the deadline; null = the no-progress bound. A bounded
     * wait's passes start no operation that connects links, whose wait for the peer the deadline would not bound.
     */
    private boolean waitUntil(Deadline deadline) {
        if (!done) {
            BackoffIdleStrategy idle = engine.waitPolicy().caller(engine.threadsBeside()).strategy(engine::callerSleep);
            engine.callerWaiting(1);
            try {
                while (!done) {
                    int work = deadline != null ? engine.tryProgressWithoutConnecting() : engine.tryProgress();
                    if (done) break;
                    if (deadline != null ? deadline.expired() : engine.stalledBeyondTimeout()) return false;
                    idle.idle(work);
                }
            } finally {
                engine.callerWaiting(-1);
            }
        }
        JcclException f = failure;
        if (f != null) throw f;
        return true;
    }

    @Override
    public Optional<JcclException> exception() {
        return Optional.ofNullable(failure);
    }

    @Override
    public String toString() {
        return "Work{seq=" + seq + (done ? failure == null ? ", done" : ", failed" : ", pending") + "}";
    }
}
