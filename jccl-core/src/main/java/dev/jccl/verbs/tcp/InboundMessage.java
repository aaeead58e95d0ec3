package dev.jccl.verbs.tcp;

import static dev.jccl.verbs.tcp.FrameDescriptor.TYPE_READ_REQUEST;

/**
 * What the responder knows about one incoming message while its chunks land. Slots are reused
 * ({@link #reset}); every field is guarded by the owning {@link Responder}'s monitor.
 */
final class InboundMessage {
    long seq = -1;
    byte type;
    long msgLength;
    long remoteAddress;
    int rkey;
    int imm;
    long recvIndex;
    /** The requester completed it when posting ({@link FrameDescriptor#REQ_ACK_LAZY}): its ack may wait for a reply. */
    boolean ackLazy;
    long landedBytes;
    int chunks;
    /** 0, or the NAK status the responder will answer with. */
    byte failure;
    String detail;

    /** Takes the first chunk's description, or checks that a later chunk agrees with it. */
    void admit(FrameCodec h) throws MalformedFrameException {
        if (seq < 0) {
            seq = h.seq();
            type = h.type();
            msgLength = h.msgLength();
            remoteAddress = h.remoteAddress();
            rkey = h.rkey();
            imm = h.imm();
            recvIndex = h.recvIndex();
            ackLazy = h.status() == FrameDescriptor.REQ_ACK_LAZY;
            return;
        }
        if (seq != h.seq() || type != h.type() || msgLength != h.msgLength() || remoteAddress != h.remoteAddress()
                || rkey != h.rkey() || imm != h.imm() || recvIndex != h.recvIndex()) {
            throw new MalformedFrameException("chunk of message seq " + h.seq() + " disagrees with its first chunk ("
                    + FrameDescriptor.typeName(h.type()) + " " + h.msgLength() + " bytes vs "
                    + FrameDescriptor.typeName(type) + " " + msgLength + " bytes)");
        }
        if (type == TYPE_READ_REQUEST) throw new MalformedFrameException("READ_REQUEST seq " + seq + " sent twice");
    }

    void landed(int bytes) throws MalformedFrameException {
        chunks++;
        landedBytes += bytes;
        if (landedBytes > msgLength) {
            throw new MalformedFrameException("message seq " + seq + " received " + landedBytes + " bytes, more than its "
                    + msgLength);
        }
    }

    void fail(byte status, String why) {
        if (failure == 0) {
            failure = status;
            detail = why;
        }
    }

    /** Every chunk landed (or the message failed and needs no more): it may be delivered in order. */
    boolean done() {
        return chunks > 0 && (failure != 0 || type == TYPE_READ_REQUEST || landedBytes == msgLength);
    }

    void reset() {
        seq = -1;
        landedBytes = 0;
        chunks = 0;
        failure = 0;
        detail = null;
    }
}
