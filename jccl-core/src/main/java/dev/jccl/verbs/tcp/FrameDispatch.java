package dev.jccl.verbs.tcp;

import dev.jccl.verbs.WcStatus;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;

/**
 * Where a checked inbound frame goes: replies (ACK, READ_RESPONSE, NAK) to the {@link Requester},
 * requests to the {@link Responder}. One class for the queue pair and for the fuzz bench that drives
 * the same halves without sockets, so both treat a heartbeat, a piggybacked ack and a NAK alike.
 */
final class FrameDispatch {
    /** Told of a NAK: the peer refused request {@code n} (already checked) with {@code status}. */
    interface Refusals {
        void refused(long n, WcStatus status, long wireSeq, String why);
    }

    private final Requester requester;
    private final Responder responder;
    private final Refusals refusals;

    FrameDispatch(Requester requester, Responder responder, Refusals refusals) {
        this.requester = requester;
        this.responder = responder;
        this.refusals = refusals;
    }

    /** Step one of a frame (see {@link InboundStream.Handler#begin}). */
    MemorySegment begin(FrameCodec h, long firstTriedNs, InboundStream.Landing at) throws IOException {
        if (firstTriedNs == 0 && h.ack() != NO_ACK) requester.onAck(h.ack());
        return switch (h.type()) {
            case TYPE_ACK -> {
                // A heartbeat acknowledges nothing: it only proves the peer is alive.
                if (h.status() != ACK_HEARTBEAT) requester.onAck(h.seq());
                yield InboundStream.DISCARD;
            }
            case TYPE_READ_RESPONSE -> requester.beginReadResponse(h);
            case TYPE_NAK -> MemorySegment.ofArray(new byte[h.chunkLength()]);
            default -> responder.begin(h, firstTriedNs, at);
        };
    }

    /** The payload of the frame begun last has landed. */
    void end(FrameCodec h, MemorySegment payload) throws IOException {
        switch (h.type()) {
            case TYPE_ACK -> { }
            case TYPE_READ_RESPONSE -> requester.endReadResponse(h);
            case TYPE_NAK -> {
                String why = new String(payload.toArray(ValueLayout.JAVA_BYTE), StandardCharsets.UTF_8);
                long n = requester.nakTarget(h.seq());
                WcStatus status = switch (h.status()) {
                    case NAK_RECEIVER_NOT_READY -> WcStatus.RNR_RETRY_EXC;
                    case NAK_RECEIVE_TOO_SMALL -> WcStatus.REM_INV_REQ_ERR;
                    default -> WcStatus.REM_ACCESS_ERR;
                };
                refusals.refused(n, status, h.seq(), why);
            }
            default -> responder.end(h);
        }
    }
}
