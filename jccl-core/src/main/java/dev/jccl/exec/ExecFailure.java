package dev.jccl.exec;

import dev.jccl.verbs.WcStatus;

/**
 * Why running a schedule stopped. The runtime above turns these into the public exception tree,
 * adding the operation, its sequence number and what the other ranks report.
 */
public abstract sealed class ExecFailure extends RuntimeException permits ExecFailure.Mismatch, ExecFailure.LinkLost, ExecFailure.Corrupt {
    private final int peer;
    private final int channel;

    ExecFailure(String message, int peer, int channel) {
        super(message);
        this.peer = peer;
        this.channel = channel;
    }

    /** The rank at the other end of the link where it happened. */
    public int peer() {
        return peer;
    }

    public int channel() {
        return channel;
    }

    /**
     * A chunk from {@code peer} carried another operation's fingerprint, or another length, than the
     * operation this rank expected it for: the two ranks called different collectives.
     */
    public static final class Mismatch extends ExecFailure {
        private final int expectedFingerprint;
        private final int receivedFingerprint;

        Mismatch(int peer, int channel, int expectedFingerprint, int receivedFingerprint, long expectedBytes, long receivedBytes) {
            super(String.format("chunk from rank %d on channel %d carries fingerprint 0x%08x and %d bytes; expected 0x%08x and %d bytes",
                    peer, channel, receivedFingerprint, receivedBytes, expectedFingerprint, expectedBytes), peer, channel);
            this.expectedFingerprint = expectedFingerprint;
            this.receivedFingerprint = receivedFingerprint;
        }

        /** The same, where the message says better what differed (the LL protocol's flags). */
        Mismatch(int peer, int channel, int expectedFingerprint, int receivedFingerprint, long expectedBytes, long receivedBytes, String message) {
            super(message + String.format(" (expected 0x%08x, %d bytes; got 0x%08x, %d bytes)", expectedFingerprint, expectedBytes,
                    receivedFingerprint, receivedBytes), peer, channel);
            this.expectedFingerprint = expectedFingerprint;
            this.receivedFingerprint = receivedFingerprint;
        }

        public int expectedFingerprint() {
            return expectedFingerprint;
        }

        public int receivedFingerprint() {
            return receivedFingerprint;
        }
    }

    /**
     * The queue pair to {@code peer} went to ERR. With a flush or retry status the peer died,
     * closed or aborted; another status (or none: a broken protocol) is a transport error.
     */
    public static final class LinkLost extends ExecFailure {
        private final WcStatus status;

        LinkLost(int peer, int channel, WcStatus status, String detail) {
            super("link to rank " + peer + " (channel " + channel + ") failed: " + (status == null ? "" : status + " ")
                    + (detail == null || detail.isEmpty() ? "" : "(" + detail + ")"), peer, channel);
            this.status = status;
        }

        /** The completion status that reported it; null when this side found the protocol broken. */
        public WcStatus status() {
            return status;
        }

        /** Whether the peer is gone (flushed, unreachable), as opposed to a transport or protocol error. */
        public boolean peerGone() {
            return status == WcStatus.WR_FLUSH_ERR || status == WcStatus.RETRY_EXC || status == WcStatus.RNR_RETRY_EXC;
        }
    }

    /**
     * JCCL_CHECKSUM: a chunk from {@code peer} did not have the CRC-32C its sender computed before
     * sending it; the data was changed between the two (memory, transport or wire). Never applied.
     */
    public static final class Corrupt extends ExecFailure {
        Corrupt(int peer, int channel, int op, int chunk, long linkChunk, int sent, int computed) {
            super(String.format("chunk %d of step operation %d from rank %d on channel %d (chunk %d of the link) failed its CRC-32C"
                    + " check: sent 0x%08x, received data has 0x%08x (silent data corruption between the ranks)",
                    chunk, op, peer, channel, linkChunk, sent, computed), peer, channel);
        }
    }
}
