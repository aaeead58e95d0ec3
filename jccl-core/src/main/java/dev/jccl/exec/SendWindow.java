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
    /** Whether each posted chunk is a direct-read descriptor: done only when the peer freed its slot. */
    private final boolean[] directOf;
    /** Chunks whose direct-read end has been looked at ({@link #nextReadDone}); never ahead of completed or freed. */
    private long settled;
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
        this.directOf = new boolean[slots];
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

    void dataPosted(int op, boolean direct) {
        opOf[(int) (posted % slots)] = op;
        directOf[(int) (posted % slots)] = direct;
        posted++;
    }

    /**
     * A data chunk completed locally (completions arrive in posting order); returns its operation, or
     * -1 for a direct-read descriptor, which is done only when {@link #nextReadDone} returns it.
     */
    int dataCompleted() {
        if (completed == posted) throw new IllegalStateException("a data completion for a chunk never posted");
        int s = (int) (completed++ % slots);
        return directOf[s] ? -1 : opOf[s];
    }

    /**
     * The operation of the next direct-read chunk the peer has finished reading (its slot is freed,
     * and the credit is sent only after the read) and whose descriptor write completed here; -1 when
     * none. A slot is reused only after both, so {@code opOf} still holds the chunk's operation.
     */
    int nextReadDone() {
        while (settled < completed && settled < freed) {
            int s = (int) (settled++ % slots);
            if (directOf[s]) return opOf[s];
        }
        return -1;
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
