package dev.jccl.exec;

/**
 * The receiving half of a link's flow control: chunks arrived (with each one's immediate and
 * length, by slot) and chunks applied, and how many applied slots still wait to be returned to the
 * peer as credits. Chunk i of the link is in slot i % slots. Not thread-safe (progress thread only).
 */
final class ArrivalRing {
    private final int slots;
    private final int[] imm;
    private final long[] bytes;
    private long arrived;
    private long applied;
    private int toReturn;
    private long returnedTotal;

    ArrivalRing(int slots) {
        this.slots = slots;
        this.imm = new int[slots];
        this.bytes = new long[slots];
    }

    /** Records an arrival; false if the peer overran the FIFO (it sent without credit). */
    boolean arrive(int immediate, long length) {
        if (arrived - applied >= slots) return false;
        int s = (int) (arrived % slots);
        imm[s] = immediate;
        bytes[s] = length;
        arrived++;
        return true;
    }

    boolean hasNext() {
        return arrived > applied;
    }

    /** Index (counting from the link's creation) of the next chunk to apply. */
    long next() {
        return applied;
    }

    int nextImm() {
        return imm[(int) (applied % slots)];
    }

    long nextBytes() {
        return bytes[(int) (applied % slots)];
    }

    void applied() {
        applied++;
        toReturn++;
    }

    int toReturn() {
        return toReturn;
    }

    /** The slots returned so far, counting this return: what the credit message carries. */
    long returnedTotalAfterThis() {
        return returnedTotal + toReturn;
    }

    void returned() {
        returnedTotal += toReturn;
        toReturn = 0;
    }

    String describe() {
        return "received " + arrived + " (applied " + applied + ")";
    }
}
