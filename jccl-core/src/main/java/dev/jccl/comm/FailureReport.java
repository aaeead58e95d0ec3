package dev.jccl.comm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Builds the message of a failure from the first failure's record and every rank's published flight
 * recorder: which ranks disagree on which field of which collective, which ranks never reached the
 * operation that timed out, which ranks stayed silent. Pure: every rank that reads the same records
 * names the same culprits.
 */
final class FailureReport {
    private FailureReport() {}

    static Failure build(AbortRecord first, int rank, int size, Map<Integer, List<FlightRecorder.Published>> recorders,
                         OpDescriptor mine, String localState, String recorderDump, Throwable cause) {
        String disagreement = disagreement(recorders);
        Failure.Kind kind = first.kind();
        if (disagreement != null && (kind == Failure.Kind.TIMEOUT || kind == Failure.Kind.MISMATCH)) kind = Failure.Kind.MISMATCH;
        StringBuilder b = new StringBuilder("rank ").append(rank).append(": ");
        switch (kind) {
            case MISMATCH -> b.append("collective mismatch").append(disagreement != null ? ": " + disagreement : "")
                    .append(" (").append(first.reason()).append(')');
            case TIMEOUT -> b.append(first.reason()).append(behind(recorders, size, mine));
            case PEER_LOST -> b.append("lost rank ").append(first.lostRank()).append(": ").append(first.reason());
            case ABORTED, ERROR -> b.append(first.reason());
        }
        if (mine != null && first.raisedBy() != rank) {
            b.append("; this rank was running ").append(mine.describe()).append(" (seq ").append(mine.opSeq()).append(')');
        }
        if (localState != null && !localState.isEmpty()) b.append("; ").append(localState);
        List<Integer> silent = new ArrayList<>();
        for (int r = 0; r < size; r++) if (!recorders.containsKey(r)) silent.add(r);
        if (!silent.isEmpty()) b.append("; ").append(ranks(silent)).append(" did not report (dead, or not calling into jccl)");
        b.append('\n').append(recorderDump);
        return new Failure(kind, b.toString(), first.lostRank(), cause);
    }

    /** The first collective (lowest matching sequence) whose fields differ between ranks, as text; null if none. */
    static String disagreement(Map<Integer, List<FlightRecorder.Published>> recorders) {
        Map<Long, Map<Integer, OpDescriptor>> bySeq = new TreeMap<>();
        for (var e : recorders.entrySet()) {
            for (FlightRecorder.Published p : e.getValue()) {
                if (!p.op().kind().pointToPoint()) bySeq.computeIfAbsent(p.op().matchSeq(), k -> new TreeMap<>()).put(e.getKey(), p.op());
            }
        }
        for (var e : bySeq.entrySet()) {
            Map<Integer, OpDescriptor> ops = e.getValue();
            List<String> fields = new ArrayList<>();
            field(fields, "collective", ops, d -> d.kind().apiName());
            field(fields, "count", ops, d -> d.kind() == OpKind.BARRIER ? "-" : Long.toString(d.count()));
            field(fields, "type", ops, d -> d.type() == null ? "-" : d.type().ncclName());
            field(fields, "op", ops, d -> d.op() == null ? "-" : d.op().ncclName());
            field(fields, "root", ops, d -> d.kind().rooted() ? Integer.toString(d.root()) : "-");
            if (!fields.isEmpty()) return "collective #" + e.getKey() + " differs between ranks: " + String.join("; ", fields);
        }
        return p2pDisagreement(recorders);
    }

    private static String p2pDisagreement(Map<Integer, List<FlightRecorder.Published>> recorders) {
        for (var e : recorders.entrySet()) {
            for (FlightRecorder.Published p : e.getValue()) {
                OpDescriptor send = p.op();
                if (send.kind() != OpKind.SEND || !recorders.containsKey(send.root())) continue;
                for (FlightRecorder.Published q : recorders.get(send.root())) {
                    OpDescriptor recv = q.op();
                    if (recv.kind() == OpKind.RECV && recv.root() == e.getKey() && recv.matchSeq() == send.matchSeq()
                            && (recv.count() != send.count() || recv.type() != send.type())) {
                        return "rank " + e.getKey() + " sent " + send.count() + " x " + send.type().ncclName() + " (send #" + send.matchSeq()
                                + ") but rank " + send.root() + " expected " + recv.count() + " x " + recv.type().ncclName();
                    }
                }
            }
        }
        return null;
    }

    private static void field(List<String> out, String name, Map<Integer, OpDescriptor> ops, Function<OpDescriptor, String> value) {
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        ops.forEach((r, d) -> groups.computeIfAbsent(value.apply(d), k -> new ArrayList<>()).add(r));
        if (groups.size() < 2) return;
        out.add(name + ": " + groups.entrySet().stream().map(g -> ranks(g.getValue()) + " " + (g.getValue().size() == 1 ? "has " : "have ")
                + g.getKey()).collect(Collectors.joining(", ")));
    }

    /** For a timeout: which ranks never reached this collective, and what they did last. */
    private static String behind(Map<Integer, List<FlightRecorder.Published>> recorders, int size, OpDescriptor mine) {
        if (mine == null || mine.kind().pointToPoint()) return "";
        List<String> notThere = new ArrayList<>();
        List<Integer> inIt = new ArrayList<>();
        for (var e : recorders.entrySet()) {
            FlightRecorder.Published last = null;
            boolean reached = false;
            for (FlightRecorder.Published p : e.getValue()) {
                if (p.op().kind().pointToPoint()) continue;
                if (p.op().matchSeq() >= mine.matchSeq()) reached = true;
                last = p;
            }
            if (reached) inIt.add(e.getKey());
            else notThere.add("rank " + e.getKey() + " (" + (last == null ? "no collective yet"
                    : "last: " + last.op().describe() + " " + last.state()) + ")");
        }
        StringBuilder b = new StringBuilder();
        if (!notThere.isEmpty()) b.append("; did not show progress (never called collective #").append(mine.matchSeq()).append("): ")
                .append(String.join(", ", notThere));
        if (!inIt.isEmpty() && inIt.size() < size) b.append("; reached it: ").append(ranks(inIt));
        return b.toString();
    }

    static String ranks(List<Integer> rs) {
        return (rs.size() == 1 ? "rank " : "ranks ") + rs.stream().map(String::valueOf).collect(Collectors.joining(", "));
    }
}
