package dev.jccl.comm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The last operations of one rank: sequence number, what it was, and how far it got. Dumped into
 * every failure message and published to the store when the communicator aborts, so a hang can be
 * traced to the rank that is behind (in the spirit of PyTorch's NCCL flight recorder).
 * Thread-safe: the issuing thread adds, the progress thread updates states.
 */
final class FlightRecorder {
    enum State { QUEUED, RUNNING, DONE, FAILED }

    static final class Entry {
        final OpDescriptor op;
        final long issuedNs = System.nanoTime();
        volatile State state = State.QUEUED;
        volatile long startedNs;
        volatile long endedNs;

        Entry(OpDescriptor op) {
            this.op = op;
        }

        void started() {
            startedNs = System.nanoTime();
            state = State.RUNNING;
        }

        void ended(boolean ok) {
            endedNs = System.nanoTime();
            state = ok ? State.DONE : State.FAILED;
        }

        String line() {
            long t = state == State.QUEUED ? 0 : (endedNs != 0 ? endedNs : System.nanoTime()) - startedNs;
            return String.format(Locale.ROOT, "seq %d %s %s%s", op.opSeq(), op.describe(), state,
                    state == State.QUEUED ? "" : String.format(Locale.ROOT, " %.3f ms", t / 1e6));
        }
    }

    private final Entry[] ring;
    private long added; // guarded by this

    FlightRecorder(int capacity) {
        ring = new Entry[capacity];
    }

    synchronized Entry add(OpDescriptor op) {
        Entry e = new Entry(op);
        ring[(int) (added++ % ring.length)] = e;
        return e;
    }

    /** Oldest first. */
    synchronized List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        long from = Math.max(0, added - ring.length);
        for (long i = from; i < added; i++) out.add(ring[(int) (i % ring.length)]);
        return out;
    }

    /** "last N operations on rank r:" and one line each, oldest first. */
    String dump(int rank) {
        List<Entry> es = entries();
        StringBuilder b = new StringBuilder("last ").append(es.size()).append(" operations on rank ").append(rank).append(':');
        for (Entry e : es) b.append("\n    ").append(e.line());
        return b.toString();
    }

    /** The store form: one "STATE descriptor" line per entry (see {@link OpDescriptor#encode()}). */
    String encode() {
        StringBuilder b = new StringBuilder();
        for (Entry e : entries()) b.append(e.state).append(' ').append(e.op.encode()).append('\n');
        return b.toString();
    }

    record Published(State state, OpDescriptor op) {}

    static List<Published> decode(String text) {
        List<Published> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) continue;
            int sp = line.indexOf(' ');
            out.add(new Published(State.valueOf(line.substring(0, sp)), OpDescriptor.decode(line.substring(sp + 1))));
        }
        return out;
    }
}
