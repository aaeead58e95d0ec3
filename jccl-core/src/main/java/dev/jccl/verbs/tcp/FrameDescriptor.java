package dev.jccl.verbs.tcp;

import java.nio.ByteOrder;

/**
 * Wire layout of one frame: a fixed little-endian header followed by {@code chunkLength} payload
 * bytes. Offsets are computed here, once, from the field sizes.
 *
 * <pre>
 *   type          u8   what the frame is (the TYPE_* constants)
 *   status        u8   NAK: why the responder refused (the NAK_* constants); ACK: ACK_HEARTBEAT or 0;
 *                      a request: 0 or REQ_ACK_LAZY
 *   reserved      u16  must be 0
 *   chunkLength   i32  payload bytes that follow this header
 *   seq           i64  message sequence number; for ACK: every message up to it is delivered
 *   msgLength     i64  bytes of the whole message the chunk belongs to (READ_REQUEST: bytes to read)
 *   chunkOffset   i64  where the payload sits inside the message
 *   remoteAddress i64  RDMA address of the message's first byte at the responder
 *   rkey          i32  responder's region key
 *   imm           i32  immediate of WRITE_WITH_IMM
 *   recvIndex     i64  SEND / WRITE_WITH_IMM: which posted receive of the responder it consumes, from 0
 *   ack           i64  -1, or: every request of the other direction up to this seq is delivered
 * </pre>
 *
 * <p>Requests (SEND, WRITE, WRITE_IMM, READ_REQUEST) flow from requester to responder; replies (ACK,
 * NAK, READ_RESPONSE) flow back. A message larger than one chunk is cut into several frames that share
 * seq and msgLength and differ in chunkOffset.
 *
 * <p>Acknowledgements ride on whatever goes the other way: any frame may carry a cumulative {@code ack}
 * for the requests its sender has delivered, so a reply that follows a request at once (a ping-pong,
 * a credit returned) needs no ACK frame of its own. A standalone ACK is sent only when nothing else
 * is about to go out. A NAK for seq n also acknowledges everything before n, which the responder
 * delivered before refusing n.
 */
final class FrameDescriptor {
    private FrameDescriptor() {}

    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    static final int TYPE_OFFSET = 0;
    static final int STATUS_OFFSET = TYPE_OFFSET + Byte.BYTES;
    static final int RESERVED_OFFSET = STATUS_OFFSET + Byte.BYTES;
    static final int CHUNK_LENGTH_OFFSET = RESERVED_OFFSET + Short.BYTES;
    static final int SEQ_OFFSET = CHUNK_LENGTH_OFFSET + Integer.BYTES;
    static final int MSG_LENGTH_OFFSET = SEQ_OFFSET + Long.BYTES;
    static final int CHUNK_OFFSET_OFFSET = MSG_LENGTH_OFFSET + Long.BYTES;
    static final int REMOTE_ADDRESS_OFFSET = CHUNK_OFFSET_OFFSET + Long.BYTES;
    static final int RKEY_OFFSET = REMOTE_ADDRESS_OFFSET + Long.BYTES;
    static final int IMM_OFFSET = RKEY_OFFSET + Integer.BYTES;
    static final int RECV_INDEX_OFFSET = IMM_OFFSET + Integer.BYTES;
    static final int ACK_OFFSET = RECV_INDEX_OFFSET + Long.BYTES;
    static final int HEADER_BYTES = ACK_OFFSET + Long.BYTES;

    /** The ack field of a frame that acknowledges nothing. */
    static final long NO_ACK = -1;

    static final byte TYPE_SEND = 1;
    static final byte TYPE_WRITE = 2;
    static final byte TYPE_WRITE_IMM = 3;
    static final byte TYPE_READ_REQUEST = 4;
    static final byte TYPE_READ_RESPONSE = 5;
    static final byte TYPE_ACK = 6;
    static final byte TYPE_NAK = 7;

    /**
     * Status of an ACK that acknowledges nothing: a heartbeat, written on a lane that has been idle
     * for a heartbeat period, so the peer's receiver hears from a live peer at least that often.
     */
    static final byte ACK_HEARTBEAT = 1;

    /**
     * Status of a request whose requester does not wait for its ACK to complete it (an inline request,
     * done when posted): the responder may hold the ACK back for a reply to carry, up to
     * {@code OutboundLanes.LAZY_ACK_DELAY_NS} or a quarter of the window, instead of writing an ACK
     * frame at once. A request without it is acknowledged as soon as the responder finds nothing more
     * to read, since its requester's completion waits for that ACK.
     */
    static final byte REQ_ACK_LAZY = 1;

    /** The rkey, range or right did not fit a region of the responder. */
    static final byte NAK_REMOTE_ACCESS = 1;
    /** No receive was posted within the responder's RNR timeout. */
    static final byte NAK_RECEIVER_NOT_READY = 2;
    /** A SEND was larger than the receive buffer it consumed. */
    static final byte NAK_RECEIVE_TOO_SMALL = 3;

    /**
     * Largest payload of one frame. Small enough that an ACK queued behind a chunk waits at most a
     * millisecond or so on a busy socket; large enough that headers cost nothing.
     */
    static final int MAX_CHUNK_BYTES = 1 << 20;
    /** Largest NAK explanation, UTF-8. */
    static final int MAX_DETAIL_BYTES = 1024;
    /** Largest send queue a tcp queue pair supports: how far ahead of delivery a requester may run. */
    static final int MAX_WINDOW = 1 << 16;

    static boolean isRequest(byte type) {
        return type >= TYPE_SEND && type <= TYPE_READ_REQUEST;
    }

    static String typeName(byte type) {
        return switch (type) {
            case TYPE_SEND -> "SEND";
            case TYPE_WRITE -> "WRITE";
            case TYPE_WRITE_IMM -> "WRITE_IMM";
            case TYPE_READ_REQUEST -> "READ_REQUEST";
            case TYPE_READ_RESPONSE -> "READ_RESPONSE";
            case TYPE_ACK -> "ACK";
            case TYPE_NAK -> "NAK";
            default -> String.format("0x%02x", type);
        };
    }
}
