package dev.jccl.exec;

import dev.jccl.algo.Tuner;

/**
 * Layout of the receive FIFO of one link: {@code slotCount} slots of {@code slotBytes} each, back
 * to back in one registered region the peer writes into. Chunk {@code i} a peer sends on the link
 * (counting from the link's creation, across operations) lands in slot {@code i % slotCount}.
 *
 * <p>Both ends derive the layout from the same knobs (JCCL_BUFFSIZE, JCCL_CHUNKSIZE); connecting
 * checks that the peer's FIFO has the same length, so a rank started with other knobs fails at
 * connect time instead of writing outside a slot. Slots are multiples of 64 bytes, so every slot
 * starts on a cache line and holds a whole number of elements of every type.
 *
 * <p>With JCCL_CHECKSUM the region ends in a trailer area, one CRC-32C word per slot, that the
 * sender writes before each chunk ({@link #crcOffsetOf}); it changes the region's length, so ranks
 * that disagree on the knob fail at connect time too.
 */
public record FifoDescriptor(int slotCount, long slotBytes, boolean checksummed) {
    public static final long SLOT_ALIGN = 64;
    /** Bytes of one chunk's checksum trailer. */
    public static final int CRC_BYTES = Integer.BYTES;

    public FifoDescriptor(int slotCount, long slotBytes) {
        this(slotCount, slotBytes, false);
    }

    public FifoDescriptor {
        if (slotCount < 2) throw new IllegalArgumentException("a FIFO needs at least 2 slots, got " + slotCount);
        if (slotBytes < SLOT_ALIGN || slotBytes % SLOT_ALIGN != 0) {
            throw new IllegalArgumentException("slot of " + slotBytes + " bytes is not a positive multiple of " + SLOT_ALIGN);
        }
    }

    /**
     * The layout for a FIFO of {@code buffBytes}: {@link Tuner#SLOTS} slots, fewer and larger when a
     * forced chunk size ({@code forcedChunkBytes > 0}) needs them, never fewer than two.
     */
    public static FifoDescriptor of(long buffBytes, long forcedChunkBytes) {
        long slot = Math.max(buffBytes / Tuner.SLOTS, forcedChunkBytes);
        slot = Math.max(SLOT_ALIGN, (slot + SLOT_ALIGN - 1) / SLOT_ALIGN * SLOT_ALIGN);
        long slots = Math.max(2, buffBytes / slot);
        if (slots > Tuner.SLOTS) slots = Tuner.SLOTS;
        return new FifoDescriptor((int) slots, slot);
    }

    /** This layout with or without the checksum trailers. */
    public FifoDescriptor withChecksums(boolean on) {
        return new FifoDescriptor(slotCount, slotBytes, on);
    }

    public long totalBytes() {
        return slotCount * slotBytes + (checksummed ? trailerBytes() : 0);
    }

    /** The trailer area: a word per slot, rounded up to whole cache lines. */
    private long trailerBytes() {
        return (slotCount * (long) CRC_BYTES + SLOT_ALIGN - 1) / SLOT_ALIGN * SLOT_ALIGN;
    }

    /** Byte offset of the checksum word of chunk {@code chunkIndex} (only with {@link #checksummed}). */
    public long crcOffsetOf(long chunkIndex) {
        return slotCount * slotBytes + (chunkIndex % slotCount) * CRC_BYTES;
    }

    /** Byte offset of the slot chunk number {@code chunkIndex} of the link lands in. */
    public long offsetOf(long chunkIndex) {
        return (chunkIndex % slotCount) * slotBytes;
    }

    /** Largest chunk a slot holds for elements of {@code elemBytes}, in elements. */
    public long maxChunkElems(int elemBytes) {
        return slotBytes / elemBytes;
    }

    /** Throws when the peer's FIFO ({@code remoteBytes}) is not this layout: the ranks' FIFO knobs differ. */
    public void checkPeerFifo(long remoteBytes, int peer, int channel) {
        if (remoteBytes != totalBytes()) {
            throw new IllegalStateException("rank " + peer + " offers a FIFO of " + remoteBytes + " bytes on channel "
                    + channel + " but this rank uses " + totalBytes() + " (" + slotCount + " x " + slotBytes
                    + (checksummed ? ", with checksum trailers" : "")
                    + "): JCCL_BUFFSIZE, JCCL_CHUNKSIZE or JCCL_CHECKSUM differ between the ranks");
        }
    }
}
