package dev.jccl.verbs.shm;

import dev.jccl.verbs.VerbsException;

/**
 * Layout of a queue pair's file, {@code jccl-<pid>-<n>-qp<qpn>}, created by the queue pair that
 * RECEIVES through it and mapped by its peer, which sends through it.
 *
 * <pre>
 *   0  magic (int)            release-stored last, when the header is complete
 *   4  version (int)
 *   8  qpn (int)
 *  12  ring capacity (int)    = the owner's receive queue depth
 *  16  pid (long)
 *  24  lid (long)             owner's context
 *  32  pd id (int)            regions of other domains are refused to this queue pair's peer
 *  64  state (int)            owner: QpState ordinal or CLOSED, release/volatile-stored
 *  68  peer qpn (int)         owner, written before state becomes RTR
 *  72  peer lid (long)        owner, written before state becomes RTR
 *  80  cross reads (int)      owner, written before state becomes RTR: 1 = the owner can read the
 *                             peer's private memory (process_vm_readv, probed), so the peer may send
 *                             descriptors of private chunks instead of the chunks
 * 128  busy (int)             peer: inside a receive consumption (see ShmQueuePair)
 * 192  recv tail (long)       owner produces receives
 * 256  recv head (long)       peer consumes receives
 * 320  notify tail (long)     peer produces notifications
 * 384  notify head (long)     owner consumes notifications
 * 448  recv ring:   capacity x RECV_ENTRY_BYTES
 *      notify ring: capacity x NOTIFY_ENTRY_BYTES
 * </pre>
 *
 * Each index sits on its own cache line so the two processes never write the same line except
 * {@code busy}.
 */
final class QpFileDescriptor {
    private QpFileDescriptor() {}

    static final int MAGIC = 0x4A43_5351; // "JCSQ"
    static final int VERSION = 1;
    static final int MAX_CAPACITY = 1 << 20;

    static final long MAGIC_OFFSET = 0;
    static final long VERSION_OFFSET = 4;
    static final long QPN_OFFSET = 8;
    static final long CAPACITY_OFFSET = 12;
    static final long PID_OFFSET = 16;
    static final long LID_OFFSET = 24;
    static final long PD_ID_OFFSET = 32;
    static final long STATE_OFFSET = 64;
    static final long PEER_QPN_OFFSET = 68;
    static final long PEER_LID_OFFSET = 72;
    static final long CROSS_READS_OFFSET = 80;
    static final long BUSY_OFFSET = 128;
    static final long RECV_TAIL_OFFSET = 192;
    static final long RECV_HEAD_OFFSET = 256;
    static final long NOTIFY_TAIL_OFFSET = 320;
    static final long NOTIFY_HEAD_OFFSET = 384;
    static final long RECV_RING_OFFSET = 448;
    static final long HEADER_BYTES = RECV_RING_OFFSET;

    /** Value of the state word after the owner closed the queue pair (beyond the QpState ordinals). */
    static final int STATE_CLOSED = 5;

    static final long RECV_ENTRY_BYTES = 32;
    static final long RECV_SEQ = 0;          // long: index of this receive, checked by the consumer
    static final long RECV_ALLOC_ID = 8;     // int: backing file of the buffer, -1 for none
    static final long RECV_FILE_OFFSET = 16; // long
    static final long RECV_LENGTH = 24;      // long

    static final long NOTIFY_ENTRY_BYTES = 32;
    static final long NOTIFY_RECV_SEQ = 0;   // long: which receive this completes
    static final long NOTIFY_BYTE_LEN = 8;   // long
    static final long NOTIFY_IMM = 16;       // int
    static final long NOTIFY_OPCODE = 20;    // int: NOTIFY_RECV or NOTIFY_RECV_WITH_IMM
    static final long NOTIFY_STATUS = 24;    // int: NOTIFY_OK or NOTIFY_LOC_LEN_ERR

    static final int NOTIFY_RECV = 0;
    static final int NOTIFY_RECV_WITH_IMM = 1;

    static final int NOTIFY_OK = 0;
    /** The SEND did not fit the receive buffer; nothing was written into it. */
    static final int NOTIFY_LOC_LEN_ERR = 1;

    static long recvEntry(long index, int capacity) {
        return RECV_RING_OFFSET + Math.floorMod(index, capacity) * RECV_ENTRY_BYTES;
    }

    static long notifyRingOffset(int capacity) {
        return RECV_RING_OFFSET + capacity * RECV_ENTRY_BYTES;
    }

    static long notifyEntry(long index, int capacity) {
        return notifyRingOffset(capacity) + Math.floorMod(index, capacity) * NOTIFY_ENTRY_BYTES;
    }

    static long fileBytes(int capacity) {
        return notifyRingOffset(capacity) + capacity * NOTIFY_ENTRY_BYTES;
    }

    /** Checks a capacity read from a peer's file against that file's size, naming both. */
    static void checkCapacity(int capacity, long fileBytes, String file) {
        if (capacity < 1 || capacity > MAX_CAPACITY || fileBytes(capacity) > fileBytes) {
            throw new VerbsException("queue pair file " + file + " is malformed: ring capacity " + capacity
                    + " (max " + MAX_CAPACITY + ") does not fit its " + fileBytes + " bytes");
        }
    }
}
