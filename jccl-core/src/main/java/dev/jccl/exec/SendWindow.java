package dev.jccl.exec;

/**
 * The sending half of a link's flow control: chunks posted, chunks the peer has freed (credits
 * received), chunks completed locally, credit messages in flight, and which operation each posted
 * chunk belongs to, so its local completion can be counted for that operation.
 *
 * <p>A chunk may be posted while fewer than {@code slots} chunks are unfreed by the peer and
 * uncompleted here, and the send queue has room for it. Not thread-safe (progress thread only).
 */
final class SendWindow {
    private final int slots;
    private final int sendDepth;
    private final int[] opOf;
    private long posted;
    private long freed;
    private long completed;
    private int creditsInFlight;
    /** Checksum trailers posted and not yet completed (JCCL_CHECKSUM: one ahead of every chunk). */
    private int trailersInFlight;

    private final int entriesPerChunk;

    /** {@code entriesPerChunk}: send-queue entries one data chunk takes (2 with a checksum trailer). */
    SendWindow(int slots, int sendDepth, int entriesPerChunk) {
        this.slots = slots;
        this.sendDepth = sendDepth;
        this.entriesPerChunk = entriesPerChunk;
        this.opOf = new int[slots];
    }

    boolean canPostData() {
        return posted - freed < slots && posted - completed < slots && roomInSendQueue(entriesPerChunk);
    }

    boolean roomInSendQueue(int entries) {
        return (int) (posted - completed) + creditsInFlight + trailersInFlight + entries <= sendDepth;
    }

    /** The chunk index the next data chunk gets (which slot of the peer's FIFO it fills). */
    long nextChunk() {
        return posted;
    }

    void dataPosted(int op) {
        opOf[(int) (posted % slots)] = op;
        posted++;
    }

    /** A data chunk completed locally (completions arrive in posting order); returns its operation. */
    int dataCompleted() {
        if (completed == posted) throw new IllegalStateException("a data completion for a chunk never posted");
        return opOf[(int) (completed++ % slots)];
    }

    /**
     * A credit return arrived ({@link ImmCodec#credit}: a cumulative count, so a duplicated or
     * overtaken one frees nothing); false if the peer freed more than were ever sent (a broken peer).
     */
    boolean credited(int imm) {
        freed += ImmCodec.newlyFreed(imm, freed);
        return freed <= posted;
    }

    void trailerPosted() {
        trailersInFlight++;
    }

    void trailerCompleted() {
        trailersInFlight--;
    }

    void creditPosted() {
        creditsInFlight++;
    }

    void creditCompleted() {
        creditsInFlight--;
    }

    String describe() {
        return "sent " + posted + " (freed " + freed + ", completed " + completed + ")";
    }
}
