package dev.jccl.verbs.tcp;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/** What a {@link ReceiverAgent} reports to; implemented by the queue pair. */
interface InboundSink {
    /** Waits (bounded) until frames may be processed; false when the queue pair will not get there. */
    boolean awaitReady();

    MemorySegment begin(FrameCodec header, long firstTriedNs, InboundStream.Landing at) throws IOException;

    void end(FrameCodec header, MemorySegment payload) throws IOException;

    /** Sends acknowledgements deferred by frames taken so far. */
    void flushAcks();

    /** Sends them only if they cannot wait for a reply to carry them ({@code OutboundLanes.flushAckIfDue}). */
    void flushAcksIfDue(long nowNs);

    /** Whether the queue pair's sender threads are busy writing bulk data. */
    boolean sending();

    void receiverFailed(ReceiverAgent in, IOException cause);

    /** A test holds the receiver threads (as if descheduled), so only the consumers read. */
    boolean receiverThreadsHeld();
}
