package dev.jccl.exec;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.RemoteBuffer;
import dev.jccl.verbs.SendWr;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.zip.CRC32C;

/**
 * The checksum trailers of one link (JCCL_CHECKSUM): the CRC-32C of every chunk, written by the
 * sender into the peer's trailer word for the chunk's slot ({@link FifoDescriptor#crcOffsetOf}) by
 * a 4-byte RDMA_WRITE posted just before the chunk's RDMA_WRITE_WITH_IMM on the same queue pair. RC
 * order makes the trailer visible before the chunk's receive completion, so the receiver reads it
 * with the payload. The sender's words live in a registered ring, one per slot: a word is rewritten
 * only once the chunk that used it has completed (the window allows no more than a FIFO of chunks
 * in flight), so a provider that reads the source late still sends the right one.
 *
 * <p>Exists only on checksummed links; a link without it never branches on it per byte.
 */
final class Trailers {
    private static final ValueLayout.OfInt WORD = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final FifoDescriptor fifo;
    private final MemorySegment out;
    private final MemoryRegion outRegion;
    private final SendWr wr = SendWr.send(WrIds.CHECKSUM, dev.jccl.verbs.Sge.EMPTY);
    private final CRC32C crc = new CRC32C();
    private final ByteBuffer slotsBuffer;
    private final MemorySegment slots;

    Trailers(ProtectionDomain pd, FifoDescriptor fifo, MemorySegment slotsView) {
        this.fifo = fifo;
        this.out = pd.allocate((long) fifo.slotCount() * FifoDescriptor.CRC_BYTES);
        this.outRegion = pd.register(out, EnumSet.of(Access.LOCAL_WRITE));
        this.slots = slotsView;
        this.slotsBuffer = slotsView.asByteBuffer();
    }

    /** The CRC-32C of {@code bytes} at {@code offset} in {@code source} (allocates a view: checksummed links only). */
    int of(MemorySegment source, long offset, long bytes) {
        crc.reset();
        crc.update(source.asSlice(offset, bytes).asByteBuffer());
        return (int) crc.getValue();
    }

    /** The CRC-32C of the received chunk at {@code offset} of the FIFO. */
    int ofSlot(long offset, long bytes) {
        crc.reset();
        slotsBuffer.limit((int) (offset + bytes)).position((int) offset);
        crc.update(slotsBuffer);
        slotsBuffer.clear();
        return (int) crc.getValue();
    }

    /** What the sender wrote into the trailer of chunk {@code chunkIndex}. */
    int received(long chunkIndex) {
        return slots.get(WORD, fifo.crcOffsetOf(chunkIndex));
    }

    /** The write carrying {@code value} as the trailer of chunk {@code chunkIndex}, into {@code peer}'s FIFO. */
    SendWr trailer(long chunkIndex, int value, RemoteBuffer peer) {
        long at = (chunkIndex % fifo.slotCount()) * FifoDescriptor.CRC_BYTES;
        out.set(WORD, at, value);
        return wr.set(WrIds.CHECKSUM, Opcode.RDMA_WRITE, out.address() + at, FifoDescriptor.CRC_BYTES, outRegion.lkey(),
                peer.at(fifo.crcOffsetOf(chunkIndex)), peer.rkey(), 0, true);
    }

    /** JCCL_CHECKSUM: the chunk that arrived on {@code link} must have the CRC-32C its sender computed, before it is applied. */
    void verify(Link link, int channel, int op, int chunk, long bytes) {
        int computed = ofSlot(link.arrivalOffset(), bytes);
        int sent = received(link.arrivalChunk());
        if (computed != sent) throw new ExecFailure.Corrupt(link.peer(), channel, op, chunk, link.arrivalChunk(), sent, computed);
    }
}
