package dev.jccl.exec;

/**
 * Why running a schedule stopped. The runtime above turns these into the public exception tree,
 * adding the operation, its sequence number and what the other ranks report.
 */
public abstract sealed class ExecFailure extends RuntimeException permits ExecFailure.Mismatch, ExecFailure.LinkLost {
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

        public int expectedFingerprint() {
            return expectedFingerprint;
        }

        public int receivedFingerprint() {
            return receivedFingerprint;
        }
    }

    /** The queue pair to {@code peer} went to ERR: the peer died, closed, or aborted. */
    public static final class LinkLost extends ExecFailure {
        LinkLost(int peer, int channel, String detail) {
            super("link to rank " + peer + " (channel " + channel + ") failed: " + detail, peer, channel);
        }
    }
}
