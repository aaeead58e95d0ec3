package dev.jccl.exec;

import java.util.Set;

import static dev.jccl.exec.ChannelProgram.COPY;
import static dev.jccl.exec.ChannelProgram.SEND;

/** What a {@link ChannelRun} says when something does not fit or does not move: its failures and timeout messages. */
final class ChannelDiagnostics {
    private ChannelDiagnostics() {}

    /**
     * Why the next arrival on {@code link} does not fit: a chunk of this operation (or a late copy of
     * one of the previous operation on the link) out of place, lost, duplicated or reordered under the
     * verbs contract; or a chunk of another operation.
     */
    static ExecFailure misfit(Link link, int channel, int fingerprint, long bytes) {
        long at = ImmCodec.misplacedIndex(link.arrivalImm(), fingerprint, link.arrivalChunk(), 2 * link.slotCount());
        if (at < 0) at = ImmCodec.misplacedIndex(link.arrivalImm(), link.lastFingerprint(), link.arrivalChunk(), 2 * link.slotCount());
        if (at >= 0) {
            return new ExecFailure.LinkLost(link.peer(), channel, null, "chunk " + at + " of the link arrived where chunk "
                    + link.arrivalChunk() + " was due: the transport lost, duplicated or reordered a write");
        }
        int expected = ImmCodec.data(fingerprint, link.arrivalChunk());
        return new ExecFailure.Mismatch(link.peer(), channel, expected, link.arrivalImm(), bytes, link.arrivalBytes());
    }

    /** The first unfinished operations and whom they wait for (into {@code waitingOn}), for timeout messages. */
    static String describeWaiting(ChannelProgram p, Link[] linkOf, int[] posted, int[] done, int firstOpen, Set<Integer> waitingOn) {
        StringBuilder b = new StringBuilder();
        int shown = 0;
        int open = 0;
        for (int k = firstOpen; k < p.ops; k++) {
            if (done[k] == p.chunks[k]) continue;
            if (++open > 3) continue; // the first open operations say where it is stuck; count the rest
            String what = switch (p.kind[k]) {
                case SEND -> "send to rank " + p.peer[k] + ": " + posted[k] + " posted, " + done[k] + " completed of " + p.chunks[k] + " chunks";
                case COPY -> "local copy: " + done[k] + " of " + p.chunks[k] + " chunks";
                default -> "receive from rank " + p.peer[k] + ": " + done[k] + " of " + p.chunks[k] + " chunks applied";
            };
            Link link = linkOf[k];
            boolean blockedOnPeer = p.kind[k] == SEND ? !link.canSend() || posted[k] == p.chunks[k] : p.kind[k] != COPY && !link.hasArrival();
            if (blockedOnPeer) waitingOn.add(p.peer[k]);
            b.append(b.isEmpty() ? "" : "; ").append("op ").append(k).append(' ').append(what);
            shown++;
        }
        if (open > shown) b.append("; ").append(open - shown).append(" more open");
        return "channel " + p.channel + ": " + (b.isEmpty() ? "done" : b);
    }
}
