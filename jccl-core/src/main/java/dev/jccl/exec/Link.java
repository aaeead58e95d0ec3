package dev.jccl.exec;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.RemoteBuffer;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

/**
 * One channel's connection to one peer: an RC queue pair, its own completion queue, and the FIFO of
 * registered slots the peer writes chunks into ({@link FifoDescriptor}).
 *
 * <p><b>Flow control.</b> The sender may have at most {@code slotCount} chunks the receiver has not
 * freed. The receiver frees slots in order as it applies chunks and returns the count in a
 * zero-length RDMA_WRITE_WITH_IMM whose immediate is a credit ({@link ImmCodec}), when
 * {@link CreditReturn} says: alone, or with the next chunk to the peer. A credit message, not a counter written by
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
    /** The same memory as a plain native segment: what the reduce kernels read (see {@link #slots()}). */
    private final MemorySegment slotsView;
    private final MemoryRegion slotsRegion;
    private final WorkCompletion[] wcs = WorkCompletion.array(16);
    private final RecvWr recvWr = new RecvWr(WrIds.RECV, Sge.EMPTY);
    private final Trailers trailers; // the CRC-32C trailers (JCCL_CHECKSUM); null on a link without checksums
    private final SendWr dataWr = SendWr.send(WrIds.DATA, Sge.EMPTY); // refilled per chunk: providers copy what they keep
    private final DirectReads direct; // the descriptors this side sends instead of chunks
    private RemoteBuffer peerSlots;
    private int lastFingerprint; // of the operation whose chunk was applied last
    private final SendWindow window;
    private final ArrivalRing arrivals;
    private SendListener sendListener;
    private boolean directOn = true;
    private final CreditReturn credits;

    /** Told when a data chunk posted on this link has completed locally (its source may be reused). */
    public interface SendListener { void sendCompleted(int op); }

    private Link(int peer, int channel, int pdIndex, ProtectionDomain pd, FifoDescriptor fifo) {
        this.peer = peer;
        this.channel = channel;
        this.pdIndex = pdIndex;
        this.pd = pd;
        this.fifo = fifo;
        int n = fifo.slotCount();
        // With checksums each chunk takes two send-queue entries: its trailer and itself.
        int sendDepth = (fifo.checksummed() ? 3 : 2) * n + 2;
        int recvDepth = 2 * n;
        this.cq = pd.context().createCq(sendDepth + LlLane.SEND_SLACK + recvDepth);
        try { // the slack holds the low-latency lane's writes, which the window does not count
            this.qp = pd.createQp(new QpInitAttr(cq, cq, sendDepth + LlLane.SEND_SLACK, recvDepth, true)); // credits say delivered
        } catch (RuntimeException e) {
            cq.close();
            throw e;
        }
        try {
            MemorySegment slots = pd.allocate(fifo.totalBytes());
            this.slotsRegion = pd.register(slots, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
            this.slotsView = DirectReads.plainNative(slots);
            this.trailers = fifo.checksummed() ? new Trailers(pd, fifo, slotsView) : null;
            this.direct = new DirectReads(pd, n);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        this.window = new SendWindow(n, sendDepth, fifo.checksummed() ? 2 : 1);
        this.arrivals = new ArrivalRing(n);
        this.credits = new CreditReturn(arrivals, window, n, qp.coalescesListPosts());
        qp.modifyToInit();
        for (int i = 0; i < recvDepth; i++) postRecv();
    }

    /**
     * Creates this side: queue pair in INIT with every receive posted, and the slot FIFO registered for the peer to write.
     * Hand {@link #localInfo()} and {@link #slotsRemote()} to the peer, then call {@link #connect}.
     */
    public static Link open(ProtectionDomain pd, int pdIndex, int peer, int channel, FifoDescriptor fifo) {
        return new Link(peer, channel, pdIndex, pd, fifo);
    }

    public ConnectInfo localInfo() { return qp.localInfo(); }
    public RemoteBuffer slotsRemote() { return slotsRegion.remote(); }

    /** Moves to RTS against the peer's queue pair; may block up to JCCL_TIMEOUT (verbs contract). */
    public void connect(ConnectInfo remote, RemoteBuffer remoteSlots) {
        fifo.checkPeerFifo(remoteSlots.length(), peer, channel);
        qp.modifyToRtr(remote);
        qp.modifyToRts();
        this.peerSlots = remoteSlots;
        direct.connected(qp);
    }

    public int peer() { return peer; }
    public int channel() { return channel; }
    public int pdIndex() { return pdIndex; }
    public ProtectionDomain pd() { return pd; }
    public String describe() { return qp.describe(); }
    int lastFingerprint() { return lastFingerprint; } // what a late duplicate of the last applied chunk carries

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
        if (!wc.ok()) throw new ExecFailure.LinkLost(peer, channel, wc.status(), wc.detail());
        if (wc.opcode() == WcOpcode.RECV_RDMA_WITH_IMM) {
            int imm = wc.imm();
            if (ImmCodec.isCredit(imm)) {
                if (!window.credited(imm)) {
                    throw new ExecFailure.LinkLost(peer, channel, null, "peer returned credits for chunks never sent (" + window.describe() + ")");
                }
            } else if (!arrivals.arrive(imm, wc.byteLen())) {
                throw new ExecFailure.LinkLost(peer, channel, null, "peer overran the " + fifo.slotCount() + "-slot FIFO");
            }
            postRecv();
            readsDone();
        } else if (wc.wrId() == WrIds.DATA) {
            int op = window.dataCompleted();
            if (op >= 0) sendListener.sendCompleted(op);
            readsDone();
        } else if (wc.wrId() == WrIds.CREDIT) {
            window.creditCompleted();
        } else if (wc.wrId() == WrIds.CHECKSUM) {
            window.trailerCompleted();
        }
    }

    private void readsDone() { // direct-read chunks the peer has finished reading count as sent now
        for (int op; (op = window.nextReadDone()) >= 0; ) sendListener.sendCompleted(op);
    }

    private void postRecv() {
        boolean posted;
        try { posted = qp.postRecv(recvWr); } catch (VerbsException e) { throw refused(e); }
        if (!posted) throw new ExecFailure.LinkLost(peer, channel, null, "receive queue unexpectedly full");
    }

    /** A post the provider refused: the queue pair went to ERR under us (the peer is gone), or a breach. */
    private ExecFailure.LinkLost refused(VerbsException e) {
        return new ExecFailure.LinkLost(peer, channel, qp.state() == QpState.ERR ? WcStatus.WR_FLUSH_ERR : null, e.getMessage());
    }

    /** Whether a data chunk may be posted now: a free slot at the peer and room in the send queue. */
    public boolean canSend() { return window.canPostData(); }

    /**
     * Writes {@code bytes} at {@code address} (registered under {@code lkey}) into the peer's next
     * slot with the fingerprint as immediate, after its trailer {@code crc} on a checksummed link. The
     * caller checked {@link #canSend()}; {@code listener} hears of the local completion as {@code op}.
     */
    public void postData(long address, long bytes, int lkey, int fingerprint, int crc, SendListener listener, int op) {
        checkUsable();
        long chunk = window.nextChunk();
        if (trailers != null) {
            post(trailers.trailer(chunk, crc, peerSlots));
            window.trailerPosted();
        }
        postChunk(address, bytes, lkey, chunk, ImmCodec.data(fingerprint, chunk), false, listener, op);
    }

    /** Whether chunks may go as direct-read descriptors or be stored into the peer's slot ({@link DirectReads}). */
    public boolean directReadable() { return directOn && trailers == null && direct.mapped(); }

    /** Whether chunks of private native memory may go as descriptors too: the peer can read this process by address. */
    public boolean privateReadable() { return directReadable() && qp.peerReadsPrivate(); }
    /** Writes a descriptor of the chunk at {@code address} instead of it ({@link DirectReads}): in region {@code rkey}, or {@code kind} PRIVATE. */
    public void postDirect(long address, long bytes, int rkey, int kind, int fingerprint, SendListener listener, int op) {
        checkUsable();
        long chunk = window.nextChunk();
        long at = direct.describe(chunk, rkey, kind, address, bytes);
        postChunk(direct.address(at), DirectReads.DESCRIPTOR_BYTES, direct.lkey(), chunk, ImmCodec.direct(fingerprint, chunk), true, listener, op);
    }

    DirectReads direct() { return direct; }
    /** Pins the peer's slot of our next chunk for stores; its offset in {@code direct().stores().memory()}, or -1. Needs {@link #canSend()}. */
    long pinNextSlot(long bytes) {
        return direct.stores().pin(peerSlots.rkey(), peerSlots.at(fifo.offsetOf(window.nextChunk())), bytes, true);
    }

    /** Tells the peer that our next chunk, {@code bytes} long, is in its slot already (stored there by a fused receive). */
    void postPlaced(int fingerprint, SendListener listener, int op) {
        checkUsable();
        long chunk = window.nextChunk();
        postChunk(0, 0, 0, chunk, ImmCodec.placed(fingerprint, chunk), false, listener, op);
    }

    /** Writes {@code bytes} at {@code address} into the peer's slot of {@code chunk} with {@code imm}; {@code readByPeer}: see SendWindow. */
    private void postChunk(long address, long bytes, int lkey, long chunk, int imm, boolean readByPeer, SendListener listener, int op) {
        dataWr.set(WrIds.DATA, Opcode.RDMA_WRITE_WITH_IMM, address, bytes, lkey, peerSlots.at(fifo.offsetOf(chunk)), peerSlots.rkey(), imm, true);
        if (credits.rideWithChunk()) {
            int posted;
            try { posted = qp.postSend(credits.message(peerSlots), dataWr); } catch (VerbsException e) { throw refused(e); }
            if (posted > 0) credits.posted();
            if (posted < 2) throw new ExecFailure.LinkLost(peer, channel, null, "send queue full although credits allowed the chunk");
        } else {
            post(dataWr);
        }
        sendListener = listener;
        window.dataPosted(op, readByPeer);
    }

    /** JCCL_DIRECT for the chunks this side sends (a receiver honours any descriptor it can map). */
    public void directReads(boolean on) { this.directOn = on; }

    private void post(SendWr wr) {
        if (!postUncounted(wr)) throw new ExecFailure.LinkLost(peer, channel, null, "send queue full although credits allowed the chunk");
    }

    Trailers trailers() { return trailers; } // null on a link without JCCL_CHECKSUM

    /** Whether the next chunk from the peer has arrived. */
    public boolean hasArrival() { return arrivals.hasNext(); }
    public int arrivalImm() { return arrivals.nextImm(); }
    public long arrivalBytes() { return arrivals.nextBytes(); }
    /** Index (counted on this link since it opened) of the next chunk to apply; part of its immediate. */
    public long arrivalChunk() { return arrivals.next(); }
    public int slotCount() { return fifo.slotCount(); }

    /**
     * The FIFO memory, and ({@link #arrivalOffset()}) the offset in it of the next chunk to apply; a
     * plain native segment even over shm's mapped files ({@link DirectReads#plainNative} says why).
     */
    public MemorySegment slots() { return slotsView; }

    public long arrivalOffset() { return fifo.offsetOf(arrivals.next()); }

    /** The chunk at {@link #arrivalOffset()}, of the operation with {@code fingerprint}, has been applied: its slot is free again. */
    public void consumed(int fingerprint) {
        arrivals.applied();
        lastFingerprint = fingerprint;
    }

    /** Posts a write of the low-latency lane ({@link LlLane}), outside the window; false if the send queue is full. */
    boolean postUncounted(SendWr wr) {
        checkUsable();
        try { return qp.postSend(wr); } catch (VerbsException e) { throw refused(e); }
    }

    /** Returns freed slots to the peer in one message ({@link CreditReturn} says when); returns 1 if it posted one. */
    public int flushCredits(boolean force) {
        if (!credits.dueAlone(force) || !postUncounted(credits.message(peerSlots))) return 0;
        credits.posted();
        return 1;
    }

    /** What this link waits for, for timeout messages. */
    public String state() { return "rank " + peer + " ch " + channel + ": " + window.describe() + ", " + arrivals.describe(); }

    private void checkUsable() {
        if (qp.state() == QpState.ERR) throw new ExecFailure.LinkLost(peer, channel, WcStatus.WR_FLUSH_ERR, "queue pair is in ERR");
    }

    /** Moves the queue pair to ERR so the peer notices at once; idempotent. */
    public void breakLink() { qp.modifyToError(); }

    @Override
    public void close() { qp.close(); cq.close(); }
}
