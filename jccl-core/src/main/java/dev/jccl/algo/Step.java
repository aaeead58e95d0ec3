package dev.jccl.algo;

/**
 * One step of a rank's schedule: at most one send, one local copy and one receive, each possibly
 * {@code null} but not all. Program order inside a step is send, then copy, then receive: a receive
 * that overlaps what this step sends lands only after the send has read it.
 */
public record Step(Send send, LocalCopy copy, Recv recv) {
    public Step {
        if (send == null && copy == null && recv == null) throw new IllegalArgumentException("empty step");
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder();
        if (send != null) b.append(send);
        if (copy != null) b.append(b.isEmpty() ? "" : "; ").append(copy);
        if (recv != null) b.append(b.isEmpty() ? "" : "; ").append(recv);
        return b.toString();
    }
}
