package dev.jccl.exec;

import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.RemoteBuffer;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;

/**
 * The credits one {@link Link} owes its peer: slots freed by applying the peer's chunks, returned as
 * the running total in a zero-length RDMA_WRITE_WITH_IMM ({@link ImmCodec#credit}). When to send:
 * <ul>
 *   <li>alone once half the FIFO waits to be returned (below that the peer still has half its
 *       credits, so the message can wait), or when the progress thread has nothing better to do;</li>
 *   <li>with the next chunk to the same peer, on a provider that writes a list post at once
 *       ({@link dev.jccl.verbs.QueuePair#coalescesListPosts}): over tcp a credit alone costs a system
 *       call here and a read at the peer, about a quarter of an 8 B allreduce's.</li>
 * </ul>
 * Progress thread only, like its link.
 */
final class CreditReturn {
    private final SendWr wr = SendWr.send(WrIds.CREDIT, Sge.EMPTY); // refilled per return
    private final ArrivalRing arrivals;
    private final SendWindow window;
    private final int slotCount;
    private final boolean withChunks;

    CreditReturn(ArrivalRing arrivals, SendWindow window, int slotCount, boolean withChunks) {
        this.arrivals = arrivals;
        this.window = window;
        this.slotCount = slotCount;
        this.withChunks = withChunks;
    }

    /** Whether a credit message should go alone now; unless {@code force}d, only once half the FIFO waits. */
    boolean dueAlone(boolean force) {
        int n = arrivals.toReturn();
        return n > 0 && (force || 2 * n >= slotCount) && window.roomInSendQueue(1);
    }

    /** Whether the chunk about to be posted should carry the credits owed (the send queue has room for both). */
    boolean rideWithChunk() {
        return withChunks && arrivals.toReturn() > 0 && window.roomInSendQueue(2);
    }

    /** The message returning every slot freed so far, addressed to the peer's FIFO. */
    SendWr message(RemoteBuffer peerSlots) {
        // Zero bytes into the peer's FIFO: a valid target even for providers that check the rkey of an empty write.
        return wr.set(WrIds.CREDIT, Opcode.RDMA_WRITE_WITH_IMM, 0, 0, 0, peerSlots.address(), peerSlots.rkey(),
                ImmCodec.credit(arrivals.returnedTotalAfterThis()), true);
    }

    /** The {@link #message} was posted. */
    void posted() {
        window.creditPosted();
        arrivals.returned();
    }
}
