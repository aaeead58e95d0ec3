package dev.jccl.comm;

import dev.jccl.Communicator;
import dev.jccl.JcclException;
import dev.jccl.Work;

import java.util.function.Supplier;

/** How a rank's call ended, for the failure tests. */
final class Outcomes {
    private Outcomes() {}

    /**
     * Awaits the work {@code op} issues; if it succeeded, tries a barrier, since a rank whose part
     * completed before anyone noticed the failure learns of it at its next call. Returns the first
     * failure, or null if both succeeded.
     */
    static JcclException failureOf(Communicator comm, Supplier<Work> op) {
        try {
            op.get().await();
        } catch (JcclException e) {
            return e;
        }
        try {
            comm.barrier().await();
        } catch (JcclException e) {
            return e;
        }
        return null;
    }

    /** The first exception of {@code type} in the cause chain of {@code t}, or null. */
    static <T extends Throwable> T find(Throwable t, Class<T> type) {
        for (Throwable x = t; x != null; x = x.getCause()) {
            if (type.isInstance(x)) return type.cast(x);
        }
        return null;
    }
}
