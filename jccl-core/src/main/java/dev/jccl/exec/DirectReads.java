package dev.jccl.exec;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.PeerMemory;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QueuePair;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Direct reads (JCCL_DIRECT, NCCL's P2P direct read): when a send's source lies in memory the peer
 * can map (from {@code Communicator.allocate}, registered with REMOTE_READ), the sender writes into
 * the peer's FIFO slot not the chunk but a descriptor of where it is (rkey, address, length; per
 * chunk, so no per-call exchange is needed and a different buffer next call just names other
 * addresses), and the receiver reduces or copies from the sender's memory in place. Each such chunk
 * saves the sender's copy into the slot; a 2-rank ring allreduce makes 2 memory passes instead of 4.
 *
 * <p><b>Ordering.</b> The receiver must not read before the data is final, and the sender must not
 * overwrite it before every read has ended.
 * <ul>
 *   <li>Ready: a descriptor is posted only when the chunk's hazards are met, exactly when its data
 *       would have been copied; the data was stored before the post, and the provider publishes the
 *       descriptor's arrival with a release store that the receiver's poll acquires (shm), so the
 *       read sees the final data.</li>
 *   <li>Not overwritten: such a chunk counts as sent (its {@code done} counter, which gates later
 *       writers through {@code ChunkHazards} and the end of the operation) only once the peer has
 *       freed its slot, and the peer returns that credit after its read finished, forcing the credit
 *       out at once. So no local writer and no later call touches the region while it is read.</li>
 *   <li>No deadlock: only sends that no other operation of the program waits for go direct
 *       ({@code ChannelProgram.waiters}; an in-place copy found done waits for nothing). Delaying
 *       their {@code done} then delays nothing but the end of the operation; everything else runs
 *       exactly as in the copying path, which finishes, and then every receive has read its chunk
 *       and returned its credit. (Letting a send that a later
 *       receive overwrites go direct could deadlock recursive doubling: each side's receive would wait
 *       for its own send to be read, which waits for the peer's receive.)</li>
 * </ul>
 * <p><b>Private memory.</b> Where the peer has said it can read this process's memory by address
 * ({@code QueuePair.peerReadsPrivate}: shm with JCCL_CMA, probed at connect), a chunk of any other
 * native buffer goes as a descriptor of kind {@link #PRIVATE} (no rkey): the receiver copies it out
 * with one kernel copy ({@code PeerMemory.readPrivate}, process_vm_readv), into the output when it
 * only copies, else into its own slot, whose lines are in its cache already, and reduces from there.
 * The sender's copy into the slot is saved, and each byte crosses between the cores once, not twice.
 * Ordering is the same as for shared memory.
 *
 * <p>A peer over another provider (no {@code peerReads}), checksums, heap buffers and sends that are
 * waited on fall back to copying, per chunk, decided by the sender; a receiver honours any
 * descriptor it can map, so ranks with different JCCL_DIRECT still agree.
 */
final class DirectReads {
    /** rkey (int), kind (int), address (long), length (long). */
    static final int DESCRIPTOR_BYTES = 24;
    /** Kinds of descriptor: in a region the peer maps (by rkey), or in the sender's private memory (by address alone). */
    static final int REGION = 0;
    static final int PRIVATE = 1;
    /**
     * The largest span one send of a channel reads from private memory. Beyond it the kernel's copy, a third of memcpy's speed on
     * hot data and about half on cold, costs more than the crossing it saves: 2 ranks at 16 MiB took 3.2-4.6 ms with reads against
     * 2.6-3.2 ms copied, where 1 MiB took 124-141 µs against 190-219.
     */
    static final long PRIVATE_MAX_SPAN_BYTES = 1 << 20;

    private final MemorySegment descriptors;
    private final MemoryRegion region;
    private final int slots;
    /** Loads from the peer's memory (descriptors that arrived) and stores into its slots (fused receives); null: none. */
    private PeerMemory reads;
    private PeerMemory stores;

    /** One descriptor per FIFO slot, in local memory of {@code pd} that sends may read. */
    DirectReads(ProtectionDomain pd, int slots) {
        this.slots = slots;
        this.descriptors = pd.allocate((long) slots * DESCRIPTOR_BYTES);
        this.region = pd.register(descriptors, EnumSet.noneOf(Access.class));
    }

    /** The link is connected over {@code qp}: open its accessors of the peer's memory, where the provider has them. */
    void connected(QueuePair qp) {
        reads = qp.openPeerMemory();
        stores = reads == null ? null : qp.openPeerMemory();
    }

    boolean mapped() {
        return reads != null;
    }

    PeerMemory reads() {
        return reads;
    }

    PeerMemory stores() {
        return stores;
    }

    /** Fills chunk {@code chunk}'s descriptor; returns its offset. Reused only after that chunk's slot was freed. */
    long describe(long chunk, int rkey, int kind, long address, long bytes) {
        long at = (chunk % slots) * DESCRIPTOR_BYTES;
        descriptors.set(JAVA_INT, at, rkey);
        descriptors.set(JAVA_INT, at + 4, kind);
        descriptors.set(JAVA_LONG, at + 8, address);
        descriptors.set(JAVA_LONG, at + 16, bytes);
        return at;
    }

    long address(long offset) {
        return descriptors.address() + offset;
    }

    int lkey() {
        return region.lkey();
    }

    static int rkeyAt(MemorySegment slots, long offset) {
        return slots.get(JAVA_INT, offset);
    }

    /** The kind of the descriptor that arrived on {@code link}; throws for a kind no sender writes. */
    static int arrivalKind(Link link, int channel) {
        int kind = link.slots().get(JAVA_INT, link.arrivalOffset() + 4);
        if (kind != REGION && kind != PRIVATE) {
            throw new ExecFailure.LinkLost(link.peer(), channel, null, "peer sent a direct-read descriptor of unknown kind " + kind);
        }
        return kind;
    }

    /**
     * How a send's chunks from {@code src} (registered as {@code mr}) go to the peer on {@code link} instead of being copied
     * into its slot, where the send may go direct at all ({@code allowed}): read in place from a region the peer maps
     * ({@link #REGION}), read by address from our private native memory where this call may ({@link #PRIVATE}: {@code readPrivate},
     * the run's {@link PrivateReadChoice} and the op's {@link #privateEligible}, which has checked the link already), or -1: copied.
     */
    static int kindFor(boolean allowed, boolean readPrivate, MemorySegment src, MemoryRegion mr, Link link) {
        if (!allowed) return -1;
        if (mr.access().contains(Access.REMOTE_READ) && link.directReadable()) return REGION;
        return readPrivate && src.isNative() ? PRIVATE : -1;
    }

    /** Per op of {@code p}, over {@code linkOf}, elements of {@code elemBytes}: whether it is a send that may ever go as a private read. */
    static boolean[] privateEligible(ChannelProgram p, Link[] linkOf, int elemBytes) {
        boolean[] ok = new boolean[p.ops];
        for (int k = 0; k < p.ops; k++) {
            ok[k] = p.kind[k] == ChannelProgram.SEND && p.count[k] * elemBytes <= PRIVATE_MAX_SPAN_BYTES && linkOf[k].privateReadable();
        }
        return ok;
    }

    static long addressAt(MemorySegment slots, long offset) {
        return slots.get(JAVA_LONG, offset + 8);
    }

    static long lengthAt(MemorySegment slots, long offset) {
        return slots.get(JAVA_LONG, offset + 16);
    }

    /**
     * {@code s} as a plain native segment even where it is a mapped file (shm): the Vector API
     * compiles loads to SIMD only for the segment class it has seen, and a call site that sees mapped
     * segments too falls back to a path about a hundred times slower.
     */
    @SuppressWarnings("restricted") // re-sizing a raw address is the point; native access is granted at launch
    static MemorySegment plainNative(MemorySegment s) {
        return s.isMapped() ? MemorySegment.ofAddress(s.address()).reinterpret(s.byteSize()) : s;
    }

    /**
     * Pins the peer memory the descriptor that arrived on {@code link} names ({@code link.direct().reads()}, unpin after
     * the read) and returns the chunk's offset in it; throws when it is not the {@code bytes} expected or the peer's table
     * refuses it.
     */
    static long pinArrival(Link link, int channel, int fingerprint, long bytes) {
        PeerMemory reads = checkedArrival(link, channel, fingerprint, bytes);
        long at = link.arrivalOffset();
        long off = reads.pin(rkeyAt(link.slots(), at), addressAt(link.slots(), at), bytes, false);
        if (off < 0) throw new ExecFailure.LinkLost(link.peer(), channel, null, "direct read refused: " + reads.error());
        return off;
    }

    /**
     * Copies the private chunk the descriptor that arrived on {@code link} names into {@code dst} at
     * {@code dstOff} (a cross-memory read); throws when it is not the {@code bytes} expected or the
     * kernel refuses the read.
     */
    static void readPrivateArrival(Link link, int channel, int fingerprint, long bytes, MemorySegment dst, long dstOff) {
        PeerMemory reads = checkedArrival(link, channel, fingerprint, bytes);
        if (!reads.readPrivate(addressAt(link.slots(), link.arrivalOffset()), bytes, dst, dstOff)) {
            throw new ExecFailure.LinkLost(link.peer(), channel, null, "direct read of a private buffer refused: " + reads.error());
        }
    }

    private static PeerMemory checkedArrival(Link link, int channel, int fingerprint, long bytes) {
        long length = lengthAt(link.slots(), link.arrivalOffset());
        if (length != bytes) {
            throw new ExecFailure.Mismatch(link.peer(), channel, ImmCodec.data(fingerprint, link.arrivalChunk()), link.arrivalImm(), bytes, length);
        }
        PeerMemory reads = link.direct().reads();
        if (reads == null) {
            throw new ExecFailure.LinkLost(link.peer(), channel, null, "peer sent a direct-read descriptor over a provider that cannot map its memory");
        }
        return reads;
    }
}
