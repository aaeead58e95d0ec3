package dev.jccl.comm;

import dev.jccl.CollectiveMismatchException;
import dev.jccl.CommAbortedException;
import dev.jccl.CommTimeoutException;
import dev.jccl.JcclException;
import dev.jccl.PeerLostException;

/**
 * Why a communicator stopped, once it has: the kind decides the exception class every pending
 * operation fails with, the message is the fully built report (ranks, values, flight recorder).
 */
record Failure(Kind kind, String message, int lostRank, Throwable cause) {
    enum Kind { MISMATCH, TIMEOUT, PEER_LOST, ABORTED, ERROR }

    /**
     * The exception operation {@code op} fails with: the one in flight gets the report as it is, a
     * queued one is told that it never ran.
     */
    JcclException exceptionFor(OpDescriptor op, boolean inFlight) {
        String text = inFlight ? message : op.describe() + " (seq " + op.opSeq() + ") did not run: the communicator failed before it. "
                + message;
        JcclException e = switch (kind) {
            case MISMATCH -> new CollectiveMismatchException(text);
            case TIMEOUT -> new CommTimeoutException(text);
            case PEER_LOST -> new PeerLostException(text, lostRank, op.kind().apiName(), op.opSeq());
            case ABORTED -> new CommAbortedException(text);
            case ERROR -> new JcclException(text, cause);
        };
        if (cause != null && e.getCause() == null) e.initCause(cause);
        return e;
    }

    /** What every call after the failure throws. */
    CommAbortedException afterwards(int rank) {
        return new CommAbortedException("communicator of rank " + rank + " is unusable after an earlier failure: "
                + firstLine(message), exceptionFor(new OpDescriptor(0, OpKind.BARRIER, 0, 0, null, null, 0), true));
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
