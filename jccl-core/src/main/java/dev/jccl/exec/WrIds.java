package dev.jccl.exec;

/** Work request ids on a link: each link has its own CQ, so the id only says what kind of request it was. */
final class WrIds {
    private WrIds() {}

    /** A posted receive; its completion is a data chunk or a credit return. */
    static final long RECV = 1;
    /** A data chunk written into the peer's FIFO. */
    static final long DATA = 2;
    /** A zero-length credit return. */
    static final long CREDIT = 3;
    /** The CRC-32C trailer written ahead of a data chunk (JCCL_CHECKSUM). */
    static final long CHECKSUM = 4;
    /** An unsignaled write of the low-latency lane ({@link LlLane}): only an error completes it. */
    static final long LL = 5;
}
