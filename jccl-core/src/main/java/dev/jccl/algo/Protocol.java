package dev.jccl.algo;

import dev.jccl.util.Sizes;

import java.util.Locale;

/**
 * How a collective's messages travel, chosen by size as NCCL chooses between LL and Simple.
 * {@link #SIMPLE}: chunks through the link's slot FIFO, each an RDMA_WRITE_WITH_IMM that completes
 * on both sides, with credits returning slots; it streams at the transport's bandwidth.
 * {@link #LL}: each message as 8-byte lines of 4 data bytes and a flag, written into the peer's
 * low-latency inbox with one unsignaled write that the receiver polls for; twice the bytes, but no
 * completion, credit or receive per message, so small calls cost about the transport's latency.
 *
 * <p>LL runs allreduce by recursive doubling or tree (the small-size algorithms), one channel, one
 * message per step, on providers whose writes keep aligned 8-byte words whole (shm).
 */
public enum Protocol {
    LL, SIMPLE;

    /** Largest message LL carries (its inbox slot holds twice this, as lines). */
    public static final long LL_MAX_BYTES = 16L << 10;
    /** Messages one call may send over one link on LL (a folded recursive doubling sends two). */
    public static final int LL_MESSAGES_PER_LINK = 2;
    /**
     * Up to this many bytes LL is the default, as NCCL keeps LL to small messages: LL moves twice the
     * bytes and packs and unpacks each line, Simple pays a fixed cost per message (completions,
     * credits). Measured with {@code jccl perf allreduce -N 2 -p shm} on an idle 2-core host, in two
     * runs each of {@code JCCL_PROTO=LL} and {@code Simple}, the median per call at 1 / 2 / 4 / 8 KiB:
     * LL 1.6 / 2.4-2.5 / 6.2-6.5 / 12-13 us, Simple 2.9 / 4.5 / 3.7-5.2 / 3.7-6.7 us. LL wins up to
     * 2 KiB and Simple from 4 KiB (an earlier measurement on a loaded host had put the crossover
     * above 8 KiB, before the inline caller path and plain line loads made both faster);
     * 4 ranks on 2 cores favoured Simple at 8 KiB too. {@code JCCL_PROTO} overrides it.
     */
    public static final long DEFAULT_LL_THRESHOLD_BYTES = 2L << 10;

    /** The protocol chosen and why, for the plan's reason (JCCL_DEBUG=INFO). */
    public record Choice(Protocol protocol, String why) {}

    /** JCCL_PROTO: "ll", "simple", or "" / "auto" for the size rule; null means auto. */
    public static Protocol parse(String knob) {
        String s = knob == null ? "" : knob.trim().toLowerCase(Locale.ROOT);
        return switch (s) {
            case "", "auto" -> null;
            case "ll" -> LL;
            case "simple" -> SIMPLE;
            default -> throw new IllegalArgumentException("JCCL_PROTO=" + knob + " is invalid: expected LL, Simple or auto");
        };
    }

    /**
     * The protocol for a {@code collective} of {@code bytes} run by {@code algorithm}; {@code forced}
     * is JCCL_PROTO (null = auto), {@code cannot} why LL cannot run this call here (null if it can).
     */
    public static Choice choose(Collective collective, long bytes, Algorithm algorithm, Protocol forced, String cannot) {
        if (collective != Collective.ALL_REDUCE) return new Choice(SIMPLE, "protocol Simple");
        // An empty call sends nothing, so its result does not depend on the other ranks: it would break
        // the argument that keeps LL's slots safe (LlRun), and Simple does it for free.
        String notLl = bytes == 0 ? "nothing to send" : cannot != null ? cannot
                : algorithm != Algorithm.RECURSIVE_DOUBLING && algorithm != Algorithm.TREE ? algorithm.knobName() + " does not run on LL"
                : bytes > LL_MAX_BYTES ? "LL carries at most " + Sizes.formatBytes(LL_MAX_BYTES) : null;
        if (notLl != null) {
            return new Choice(SIMPLE, "protocol Simple (" + (forced == LL ? "JCCL_PROTO=LL refused: " : "") + notLl + ")");
        }
        if (forced != null) return new Choice(forced, "protocol " + name(forced) + " (JCCL_PROTO)");
        boolean ll = bytes <= DEFAULT_LL_THRESHOLD_BYTES;
        return new Choice(ll ? LL : SIMPLE, "protocol " + (ll ? "LL (<= " : "Simple (> ") + Sizes.formatBytes(DEFAULT_LL_THRESHOLD_BYTES) + ")");
    }

    public static String name(Protocol p) {
        return p == LL ? "LL" : "Simple";
    }
}
