package dev.jccl.testkit.debug;

import dev.jccl.util.Sizes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What {@link DebugProvider} does, parsed from one line such as
 * {@code inner=tcp;seed=7;delay=rank2:2ms;stall=rank1:200ms/10s;corrupt=*@p0.001;err=rank0@#40}.
 *
 * <p>Entries are separated by {@code ;}. {@code inner} names the wrapped provider (default: the
 * first other provider JCCL_TRANSPORT names, as in {@code JCCL_TRANSPORT=debug,shm}; else tcp),
 * {@code seed} seeds the random choices (default 1). Every other entry is a fault,
 * {@code kind=who[:arg][@when]}: {@code who} is {@code rankN} or {@code *}; {@code when} is
 * {@code pX} (each eligible request with probability X), {@code #K} (the K-th eligible request
 * of that rank, once) or absent (every eligible request; for {@code err}, the first).
 *
 * <ul>
 *   <li>{@code drop}: an RDMA write is not delivered (it completes locally as if it had been);</li>
 *   <li>{@code dup}: a write is delivered twice;</li>
 *   <li>{@code reorder}: a write is overtaken by the next one on its queue pair;</li>
 *   <li>{@code corrupt}: one bit of the delivered payload is flipped (the sender's memory is untouched);</li>
 *   <li>{@code delay:D}: a request is held for duration D before the inner provider sees it;</li>
 *   <li>{@code err}: the queue pair goes to ERR at that request (as after exhausted retries);</li>
 *   <li>{@code stall:T/P}: the rank's polls and posts stop for T every P (a pause, like a long GC).</li>
 * </ul>
 */
public record FaultSpec(String inner, long seed, List<Fault> faults) {
    public enum Kind { DROP, DUP, REORDER, CORRUPT, DELAY, ERR, STALL }

    /**
     * One fault. {@code rank} -1 means every rank; {@code probability} is used when {@code nth}
     * is 0; {@code nth} -1 means every request.
     */
    public record Fault(Kind kind, int rank, long argNs, long periodNs, double probability, long nth) {
        boolean appliesTo(int r) {
            return rank < 0 || rank == r;
        }
    }

    public static final FaultSpec NONE = new FaultSpec("", 1, List.of());

    public FaultSpec {
        faults = List.copyOf(faults);
    }

    /** Parses a spec; a malformed one throws {@link IllegalArgumentException} naming the entry. */
    public static FaultSpec parse(String text) {
        String inner = "";
        long seed = 1;
        List<Fault> faults = new ArrayList<>();
        if (text == null) return NONE;
        for (String raw : text.split(";")) {
            String entry = raw.trim();
            if (entry.isEmpty()) continue;
            int eq = entry.indexOf('=');
            if (eq < 0) throw bad(entry, "expected key=value");
            String key = entry.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = entry.substring(eq + 1).trim();
            try {
                switch (key) {
                    case "inner" -> inner = value;
                    case "seed" -> seed = Long.parseLong(value);
                    default -> faults.add(fault(Kind.valueOf(key.toUpperCase(Locale.ROOT)), value));
                }
            } catch (RuntimeException e) {
                throw bad(entry, e.getMessage());
            }
        }
        if (inner.equals(DebugProvider.NAME)) throw bad("inner=" + inner, "the debug provider cannot wrap itself");
        return new FaultSpec(inner, seed, faults);
    }

    private static Fault fault(Kind kind, String value) {
        String when = "";
        int at = value.indexOf('@');
        if (at >= 0) {
            when = value.substring(at + 1).trim();
            value = value.substring(0, at).trim();
        }
        int colon = value.indexOf(':');
        String who = colon < 0 ? value : value.substring(0, colon).trim();
        String arg = colon < 0 ? "" : value.substring(colon + 1).trim();
        int rank = who.equals("*") ? -1 : Integer.parseInt(who.toLowerCase(Locale.ROOT).replaceFirst("^rank", ""));
        long argNs = 0;
        long periodNs = 0;
        if (kind == Kind.DELAY) argNs = Sizes.parseDurationNs(arg);
        if (kind == Kind.STALL) {
            String[] tp = arg.split("/");
            if (tp.length != 2) throw new IllegalArgumentException("stall needs T/P, e.g. 200ms/10s");
            argNs = Sizes.parseDurationNs(tp[0].trim());
            periodNs = Sizes.parseDurationNs(tp[1].trim());
            if (argNs <= 0 || periodNs <= argNs) throw new IllegalArgumentException("stall needs 0 < T < P");
        }
        double p = 1;
        long nth = kind == Kind.ERR ? 1 : -1;
        if (when.startsWith("p")) {
            p = Double.parseDouble(when.substring(1));
            nth = 0;
        } else if (when.startsWith("#")) {
            nth = Long.parseLong(when.substring(1));
            if (nth < 1) throw new IllegalArgumentException("#K counts from 1");
        } else if (!when.isEmpty()) {
            throw new IllegalArgumentException("expected @pX or @#K after the fault, got @" + when);
        }
        return new Fault(kind, rank, argNs, periodNs, p, nth);
    }

    private static IllegalArgumentException bad(String entry, String why) {
        return new IllegalArgumentException("fault spec entry '" + entry + "': " + why);
    }

    /** The faults that apply to {@code rank}. */
    public List<Fault> forRank(int rank) {
        return faults.stream().filter(f -> f.appliesTo(rank)).toList();
    }
}
