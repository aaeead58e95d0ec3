package dev.jccl.exec;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.RemoteBuffer;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WorkCompletion;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

/**
 * One channel's connection to one peer: an RC queue pair, its own completion queue, and the FIFO of
 * registered slots the peer writes chunks into ({@link FifoDescriptor}).
 *
 * <p><b>Flow control.</b> The sender may have at most {@code slotCount} chunks the receiver has not
 * freed. The receiver frees slots in order as it applies chunks and returns the count in a
 * zero-length RDMA_WRITE_WITH_IMM whose immediate is a credit ({@link ImmCodec}); credits are
 * coalesced, one message per link per progress pass. A credit message, not a counter written by
 * RDMA_WRITE, because its completion orders everything: the receiver has finished reading the slot
 * (on the progress thread) before it posts the credit; the sender learns of the credit only through
 * its CQ, which the provider fills after the message arrived; and only then does it post the next
 * write into that slot. Likewise a chunk's payload is in the slot before its receive completion is
 * visible in the CQ (shm: release-store of the notification tail, acquire on poll; tcp: the
 * receiver thread places the payload before pushing the completion under the CQ's monitor). So no
 * slot is ever read and written at once, and no word needs an atomic RDMA update.
 *
 * <p><b>Receives.</b> Data chunks in flight are bounded by {@code slotCount}, and so are credit
 * messages (each frees at least one distinct chunk of ours), so {@code 2 * slotCount} receives are
 * posted up front and each is reposted as it completes: the peer never meets RNR.
 *
 * <p>Not thread-safe: used by the one thread that holds the communicator's progress lock.
 */
public final class Link implements AutoCloseable {
    private final int peer;
    private final int channel;
    private final int pdIndex;
    private final ProtectionDomain pd;
    private final FifoDescriptor fifo;
    private final CompletionQueue cq;
    private final QueuePair qp;
    private final MemorySegment slots;
    private final MemoryRegion slotsRegion;
    private final int sendDepth;
    private final WorkCompletion[] wcs = WorkCompletion.array(16);
    private final RecvWr recvWr = new RecvWr(WrIds.RECV, Sge.EMPTY);
    private final SendWr[] creditWrs;
    private RemoteBuffer peerSlots;

    // Send side: chunks posted, chunks the peer freed, chunks completed locally, credit messages out.
    private long sent;
    private long freed;
    private long sendsCompleted;
    private int creditsInFlight;
    private final int[] sendOps;
    private SendListener sendListener;

    // Receive side: chunks arrived and consumed, with each arrival's immediate and length by slot.
    private long arrived;
    private long consumed;
    private final int[] arrivalImm;
    private final long[] arrivalBytes;
    private int creditsToReturn;

    /** Told when a data chunk posted on this link has completed locally (its source may be reused). */
    public interface SendListener {
        void sendCompleted(int op);
    }

    private Link(int peer, int channel, int pdIndex, ProtectionDomain pd, FifoDescriptor fifo) {
        this.peer = peer;
        this.channel = channel;
        this.pdIndex = pdIndex;
        this.pd = pd;
        this.fifo = fifo;
        int n = fifo.slotCount();
        this.sendDepth = 2 * n + 2;
        int recvDepth = 2 * n;
        this.cq = pd.context().createCq(sendDepth + recvDepth);
        this.qp = pd.createQp(new QpInitAttr(cq, cq, sendDepth, recvDepth));
        this.slots = pd.allocate(fifo.totalBytes());
        this.slotsRegion = pd.register(slots, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        this.sendOps = new int[n];
        this.arrivalImm = new int[n];
        this.arrivalBytes = new long[n];
        this.creditWrs = new SendWr[n];
        for (int k = 1; k <= n; k++) creditWrs[k - 1] = SendWr.writeWithImm(WrIds.CREDIT, Sge.EMPTY, 0, 0, ImmCodec.credit(k));
        qp.modifyToInit();
        for (int i = 0; i < recvDepth; i++) postRecv();
    }

    /**
     * Creates this side: queue pair in INIT with every receive posted, and the slot FIFO registered
     * for the peer to write. Hand {@link #localInfo()} and {@link #slotsRemote()} to the peer, then
     * call {@link #connect}.
     */
    public static Link open(ProtectionDomain pd, int pdIndex, int peer, int channel, FifoDescriptor fifo) {
        return new Link(peer, channel, pdIndex, pd, fifo);
    }

    public ConnectInfo localInfo() {
        return qp.localInfo();
    }

    public RemoteBuffer slotsRemote() {
        return slotsRegion.remote();
    }

    /** Moves to RTS against the peer's queue pair; may block up to JCCL_TIMEOUT (verbs contract). */
    public void connect(ConnectInfo remote, RemoteBuffer remoteSlots) {
        if (remoteSlots.length() != fifo.totalBytes()) {
            throw new IllegalStateException("rank " + peer + " offers a FIFO of " + remoteSlots.length() + " bytes on channel "
                    + channel + " but this rank uses " + fifo.totalBytes() + " (" + fifo.slotCount() + " x " + fifo.slotBytes()
                    + "): JCCL_BUFFSIZE or JCCL_CHUNKSIZE differ between the ranks");
        }
        qp.modifyToRtr(remote);
        qp.modifyToRts();
        this.peerSlots = remoteSlots;
    }

    public int peer() { return peer; }
    public int channel() { return channel; }
    public int pdIndex() { return pdIndex; }
    public ProtectionDomain pd() { return pd; }
    public String describe() { return qp.describe(); }

    /** Polls this link's CQ and handles what completed; returns how many. Throws on an error completion. */
    public int poll() {
        int total = 0;
        int n;
        while ((n = cq.poll(wcs)) > 0) {
            for (int i = 0; i < n; i++) handle(wcs[i]);
            total += n;
            if (n < wcs.length) break;
        }
        return total;
    }

    private void handle(WorkCompletion wc) {
        if (!wc.ok()) throw new ExecFailure.LinkLost(peer, channel, wc.status() + (wc.detail().isEmpty() ? "" : " (" + wc.detail() + ")"));
        if (wc.opcode() == WcOpcode.RECV_RDMA_WITH_IMM) {
            int imm = wc.imm();
            if (ImmCodec.isCredit(imm)) {
                freed += ImmCodec.payload(imm);
                if (freed > sent) throw new ExecFailure.LinkLost(peer, channel, "peer returned credits for " + freed + " chunks but only " + sent + " were sent");
            } else {
                if (arrived - consumed >= fifo.slotCount()) {
                    throw new ExecFailure.LinkLost(peer, channel, "peer overran the " + fifo.slotCount() + "-slot FIFO");
                }
                int s = (int) (arrived % fifo.slotCount());
                arrivalImm[s] = imm;
                arrivalBytes[s] = wc.byteLen();
                arrived++;
            }
            postRecv();
        } else if (wc.wrId() == WrIds.DATA) {
            int op = sendOps[(int) (sendsCompleted % fifo.slotCount())];
            sendsCompleted++;
            sendListener.sendCompleted(op);
        } else if (wc.wrId() == WrIds.CREDIT) {
            creditsInFlight--;
        }
    }

    private void postRecv() {
        if (!qp.postRecv(recvWr)) throw new ExecFailure.LinkLost(peer, channel, "receive queue unexpectedly full");
    }

    /** Whether a data chunk may be posted now: a free slot at the peer and room in the send queue. */
    public boolean canSend() {
        return sent - freed < fifo.slotCount() && (int) (sent - sendsCompleted) + creditsInFlight < sendDepth;
    }

    /**
     * Writes {@code local} into the peer's next slot with the fingerprint as immediate. The caller
     * checked {@link #canSend()}; {@code listener} hears of the local completion as {@code op}.
     */
    public void postData(Sge local, int fingerprint, SendListener listener, int op) {
        checkUsable();
        SendWr wr = SendWr.writeWithImm(WrIds.DATA, local, peerSlots.at(fifo.offsetOf(sent)), peerSlots.rkey(), ImmCodec.data(fingerprint));
        if (!qp.postSend(wr)) throw new ExecFailure.LinkLost(peer, channel, "send queue full although credits allowed the chunk");
        sendListener = listener;
        sendOps[(int) (sent % fifo.slotCount())] = op;
        sent++;
    }

    /** Whether the next chunk from the peer has arrived. */
    public boolean hasArrival() {
        return arrived > consumed;
    }

    public int arrivalImm() {
        return arrivalImm[(int) (consumed % fifo.slotCount())];
    }

    public long arrivalBytes() {
        return arrivalBytes[(int) (consumed % fifo.slotCount())];
    }

    /** The FIFO memory, and the offset in it of the next chunk to consume. */
    public MemorySegment slots() {
        return slots;
    }

    public long arrivalOffset() {
        return fifo.offsetOf(consumed);
    }

    /** The chunk at {@link #arrivalOffset()} has been applied: its slot is free again. */
    public void consumed() {
        consumed++;
        creditsToReturn++;
    }

    /** Returns freed slots to the peer in one message; returns 1 if it posted one. */
    public int flushCredits() {
        if (creditsToReturn == 0 || (int) (sent - sendsCompleted) + creditsInFlight >= sendDepth) return 0;
        checkUsable();
        if (!qp.postSend(creditWrs[creditsToReturn - 1])) return 0;
        creditsInFlight++;
        creditsToReturn = 0;
        return 1;
    }

    /** Whether sends are still waiting for their local completion (an operation may not finish before). */
    public boolean sendsOutstanding() {
        return sent > sendsCompleted;
    }

    /** What this link waits for, for timeout messages. */
    public String state() {
        return "rank " + peer + " ch " + channel + ": sent " + sent + " (freed " + freed + ", completed " + sendsCompleted
                + "), received " + arrived + " (applied " + consumed + ")";
    }

    private void checkUsable() {
        if (qp.state() == QpState.ERR) throw new ExecFailure.LinkLost(peer, channel, "queue pair is in ERR");
    }

    /** Moves the queue pair to ERR so the peer notices at once; idempotent. */
    public void breakLink() {
        qp.modifyToError();
    }

    @Override
    public void close() {
        qp.close();
        cq.close();
    }
}
