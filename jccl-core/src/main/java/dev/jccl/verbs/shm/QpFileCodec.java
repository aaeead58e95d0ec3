package dev.jccl.verbs.shm;

import dev.jccl.util.Deadline;
import dev.jccl.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;

import static dev.jccl.verbs.shm.QpFileDescriptor.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A view over one queue pair's file (layout in {@link QpFileDescriptor}). The owner (receiver)
 * produces receives and consumes notifications; the peer (sender) does the opposite. Both rings are
 * single-producer single-consumer:
 * <ul>
 *   <li>the producer writes the entry with plain stores, then release-stores the tail;</li>
 *   <li>the consumer acquire-loads the tail, then reads entries below it with plain loads, then
 *       release-stores the head it has consumed up to.</li>
 * </ul>
 * Each release-store of a tail pairs with the other side's acquire-load of the same tail, so an entry
 * (and, for notifications, the payload copied before it) is visible once its index is.
 */
final class QpFileCodec {
    private final MemorySegment seg;
    private final int capacity;
    private final Path path;

    private QpFileCodec(MemorySegment seg, int capacity, Path path) {
        this.seg = seg;
        this.capacity = capacity;
        this.path = path;
    }

    /** Creates the owner's file in state RESET with empty rings. */
    static QpFileCodec create(Path path, Arena arena, int qpn, int capacity, long pid, long lid, int pdId) {
        MemorySegment seg = ShmFiles.create(path, fileBytes(capacity), arena);
        seg.set(JAVA_INT, VERSION_OFFSET, VERSION);
        seg.set(JAVA_INT, QPN_OFFSET, qpn);
        seg.set(JAVA_INT, CAPACITY_OFFSET, capacity);
        seg.set(JAVA_LONG, PID_OFFSET, pid);
        seg.set(JAVA_LONG, LID_OFFSET, lid);
        seg.set(JAVA_INT, PD_ID_OFFSET, pdId);
        SharedWords.setIntRelease(seg, MAGIC_OFFSET, MAGIC);
        return new QpFileCodec(seg, capacity, path);
    }

    /** Maps a peer's file, waiting (bounded) for it to be ready, and checks it is queue pair {@code qpn}. */
    static QpFileCodec open(Path path, Arena arena, int qpn, Deadline deadline) {
        MemorySegment seg = ShmFiles.awaitReady(path, HEADER_BYTES, MAGIC, deadline, arena);
        int capacity = seg.get(JAVA_INT, CAPACITY_OFFSET);
        QpFileDescriptor.checkCapacity(capacity, seg.byteSize(), path.toString());
        if (seg.get(JAVA_INT, VERSION_OFFSET) != VERSION || seg.get(JAVA_INT, QPN_OFFSET) != qpn) {
            throw new VerbsException("shm: " + path + " is version " + seg.get(JAVA_INT, VERSION_OFFSET) + " of qp "
                    + seg.get(JAVA_INT, QPN_OFFSET) + ", expected version " + VERSION + " of qp " + qpn);
        }
        return new QpFileCodec(seg, capacity, path);
    }

    Path path() { return path; }
    int capacity() { return capacity; }
    int qpn() { return seg.get(JAVA_INT, QPN_OFFSET); }
    long pid() { return seg.get(JAVA_LONG, PID_OFFSET); }
    int pdId() { return seg.get(JAVA_INT, PD_ID_OFFSET); }

    // ---- state: written by the owner, read by the peer ----

    /** Volatile: pairs with the peer's volatile read after {@link #enter()} (see ShmQueuePair). */
    void publishState(int state) { SharedWords.setIntVolatile(seg, STATE_OFFSET, state); }

    int state() { return SharedWords.getIntVolatile(seg, STATE_OFFSET); }

    /** Written before the state becomes RTR, so a peer that acquired RTR reads them complete. */
    void publishPeer(long peerLid, int peerQpn) {
        seg.set(JAVA_LONG, PEER_LID_OFFSET, peerLid);
        seg.set(JAVA_INT, PEER_QPN_OFFSET, peerQpn);
    }

    /** Written before the state becomes RTR, like {@link #publishPeer}. */
    void publishCrossReads(boolean canRead) {
        seg.set(JAVA_INT, CROSS_READS_OFFSET, canRead ? 1 : 0);
    }

    boolean crossReads() { return SharedWords.getIntVolatile(seg, CROSS_READS_OFFSET) == 1; }

    boolean connectedTo(long lid, int qpn) {
        return seg.get(JAVA_LONG, PEER_LID_OFFSET) == lid && seg.get(JAVA_INT, PEER_QPN_OFFSET) == qpn;
    }

    // ---- busy: the peer marks itself inside a receive consumption ----

    void enter() { SharedWords.getAndAddInt(seg, BUSY_OFFSET, 1); }
    void leave() { SharedWords.getAndAddInt(seg, BUSY_OFFSET, -1); }
    int busy() { return SharedWords.getIntVolatile(seg, BUSY_OFFSET); }

    // ---- receive ring: owner produces, peer consumes ----

    void postRecv(long index, int allocId, long fileOffset, long length) {
        long e = recvEntry(index, capacity);
        seg.set(JAVA_LONG, e + RECV_SEQ, index);
        seg.set(JAVA_INT, e + RECV_ALLOC_ID, allocId);
        seg.set(JAVA_LONG, e + RECV_FILE_OFFSET, fileOffset);
        seg.set(JAVA_LONG, e + RECV_LENGTH, length);
        SharedWords.setLongRelease(seg, RECV_TAIL_OFFSET, index + 1);
    }

    long recvTail() { return SharedWords.getLongAcquire(seg, RECV_TAIL_OFFSET); }
    long recvSeq(long index) { return seg.get(JAVA_LONG, recvEntry(index, capacity) + RECV_SEQ); }
    int recvAllocId(long index) { return seg.get(JAVA_INT, recvEntry(index, capacity) + RECV_ALLOC_ID); }
    long recvFileOffset(long index) { return seg.get(JAVA_LONG, recvEntry(index, capacity) + RECV_FILE_OFFSET); }
    long recvLength(long index) { return seg.get(JAVA_LONG, recvEntry(index, capacity) + RECV_LENGTH); }
    void consumedRecvs(long head) { SharedWords.setLongRelease(seg, RECV_HEAD_OFFSET, head); }

    // ---- notification ring: peer produces, owner consumes ----

    void notify(long index, long recvSeq, int opcode, int status, long byteLen, int imm) {
        long e = notifyEntry(index, capacity);
        seg.set(JAVA_LONG, e + NOTIFY_RECV_SEQ, recvSeq);
        seg.set(JAVA_LONG, e + NOTIFY_BYTE_LEN, byteLen);
        seg.set(JAVA_INT, e + NOTIFY_IMM, imm);
        seg.set(JAVA_INT, e + NOTIFY_OPCODE, opcode);
        seg.set(JAVA_INT, e + NOTIFY_STATUS, status);
        SharedWords.setLongRelease(seg, NOTIFY_TAIL_OFFSET, index + 1);
    }

    long notifyHead() { return SharedWords.getLongAcquire(seg, NOTIFY_HEAD_OFFSET); }
    long notifyTail() { return SharedWords.getLongAcquire(seg, NOTIFY_TAIL_OFFSET); }
    long notifyRecvSeq(long index) { return seg.get(JAVA_LONG, notifyEntry(index, capacity) + NOTIFY_RECV_SEQ); }
    long notifyByteLen(long index) { return seg.get(JAVA_LONG, notifyEntry(index, capacity) + NOTIFY_BYTE_LEN); }
    int notifyImm(long index) { return seg.get(JAVA_INT, notifyEntry(index, capacity) + NOTIFY_IMM); }
    int notifyOpcode(long index) { return seg.get(JAVA_INT, notifyEntry(index, capacity) + NOTIFY_OPCODE); }
    int notifyStatus(long index) { return seg.get(JAVA_INT, notifyEntry(index, capacity) + NOTIFY_STATUS); }
    void consumedNotifications(long head) { SharedWords.setLongRelease(seg, NOTIFY_HEAD_OFFSET, head); }
}
