package dev.jccl.algo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

import dev.jccl.util.Sizes;

/**
 * Picks algorithm, channel count and chunk size for one collective: a pure function of the
 * request, the machine's cost parameters and the user's overrides. Every algorithm that implements
 * the collective is priced by {@link CostModel} over channel counts 1, 2, 4, ... and chunk sizes
 * 4 KiB .. buffBytes/8 (powers of two), and the cheapest wins. Overrides narrow the search: a
 * forced channel count or chunk size is the only one tried, and {@code JCCL_ALGO} limits the
 * algorithms; if none of those can run here, the tuner falls back to the best one that can and says
 * so in {@link Plan#why()}. A {@link ChannelFloor} raises the fewest channels tried.
 */
public final class Tuner {
    private Tuner() {}

    /** FIFO bytes per peer and channel when {@code JCCL_BUFFSIZE} is not set. */
    public static final long DEFAULT_BUFF_BYTES = 4L << 20;
    /** A chosen chunk leaves room for this many slots in the FIFO. */
    public static final int SLOTS = 8;
    public static final long MIN_CHUNK_BYTES = 4L << 10;

    /**
     * Slots per link and channel of a FIFO of {@code buffBytes} carrying {@code chunkBytes} chunks: {@link #SLOTS},
     * fewer where a chunk is larger than buffBytes / SLOTS, never under two (the runtime's FIFO layout).
     */
    public static int slots(long buffBytes, long chunkBytes) {
        return (int) Math.max(2, Math.min(SLOTS, buffBytes / Math.max(buffBytes / SLOTS, chunkBytes)));
    }

    /**
     * A floor under the channel count that the caller knows of and the model does not: at least {@code channels}
     * (a power of two), for {@code reason}, shown in {@link Plan#why()}. A forced JCCL_NCHANNELS wins over it.
     */
    public record ChannelFloor(int channels, String reason) {
        public static final ChannelFloor NONE = new ChannelFloor(1, "");

        public ChannelFloor {
            if (channels < 1 || Integer.bitCount(channels) != 1) throw new IllegalArgumentException("a channel floor is a power of two: " + channels);
        }
    }

    public static Plan plan(TuneRequest req, CostParams params, TunerOverrides overrides) {
        return plan(req, params, overrides, ChannelFloor.NONE);
    }

    public static Plan plan(TuneRequest req, CostParams params, TunerOverrides overrides, ChannelFloor floor) {
        CostModel model = new CostModel(params);
        int minChannels = overrides.channels().isPresent() ? 1 : Math.min(floor.channels(), params.maxChannels());
        long buffBytes = overrides.buffBytes().orElse(DEFAULT_BUFF_BYTES);
        List<Plan.Candidate> priced = new ArrayList<>();
        List<Plan.Candidate> excluded = new ArrayList<>();
        for (Algorithm a : Algorithm.implementing(req.collective())) {
            boolean forced = overrides.algorithms().contains(a);
            String why = a.whyNotApplicable(req.collective(), req.topology());
            if (why == null && !forced) why = pointless(a, req.topology());
            if (why != null) excluded.add(new Plan.Candidate(a, 0, 0, -1, why));
            else priced.add(best(model, a, req, params, overrides, buffBytes, minChannels));
        }
        // Stable: an exact tie goes to the algorithm declared first (the ring before the log-depth ones).
        priced.sort(Comparator.comparingLong(Plan.Candidate::predictedNs));
        Plan.Candidate pick = priced.stream().filter(c -> overrides.algorithms().isEmpty() || overrides.algorithms().contains(c.algorithm()))
                .findFirst().orElse(null);
        List<String> notes = new ArrayList<>();
        if (pick == null) {
            pick = priced.getFirst();
            notes.add("JCCL_ALGO=" + names(overrides.algorithms()) + " cannot run here (" + reasons(overrides.algorithms(), req, excluded)
                    + "); using " + pick.algorithm().knobName());
        } else if (!overrides.algorithms().isEmpty()) {
            notes.add("JCCL_ALGO=" + names(overrides.algorithms()));
        }
        if (minChannels > 1) notes.add("at least " + minChannels + " channels: " + floor.reason());
        overrides.channels().ifPresent(c -> notes.add("JCCL_NCHANNELS=" + c));
        overrides.chunkBytes().ifPresent(c -> notes.add("JCCL_CHUNKSIZE=" + c));
        overrides.buffBytes().ifPresent(c -> notes.add("JCCL_BUFFSIZE=" + c));
        List<Plan.Candidate> all = new ArrayList<>(priced);
        all.addAll(excluded);
        return new Plan(req.collective(), req.bytes(), pick.algorithm(), pick.channels(), pick.chunkBytes(), buffBytes,
                pick.predictedNs(), all, why(req, pick, priced, notes));
    }

    /** Reasons to leave an algorithm out unless it is forced: it would only repeat another. */
    private static String pointless(Algorithm a, HostTopology t) {
        if (a != Algorithm.HIERARCHICAL) return null;
        if (t.hosts() == 1) return "all ranks share one host, so hierarchical would be the ring";
        if (t.maxRanksPerHost() == 1) return "one rank per host, so hierarchical would be the ring";
        return null;
    }

    private static Plan.Candidate best(CostModel model, Algorithm a, TuneRequest req, CostParams params, TunerOverrides o, long buffBytes,
                                       int minChannels) {
        Plan.Candidate best = null;
        CostModel.Route route = model.route(a, req);
        for (int channels : o.channels().isPresent() ? List.of(o.channels().getAsInt()) : powersOfTwo(minChannels, params.maxChannels())) {
            List<Long> chunks = o.chunkBytes().isPresent() ? List.of(o.chunkBytes().getAsLong()) : chunkSizes(buffBytes);
            for (long chunk : chunks) {
                long ns = Math.round(model.predictNs(route, req.bytes(), channels, chunk, slots(buffBytes, chunk)));
                if (best == null || ns < best.predictedNs()) best = new Plan.Candidate(a, channels, chunk, ns, null);
            }
        }
        return best;
    }

    private static List<Integer> powersOfTwo(int from, int to) {
        List<Integer> out = new ArrayList<>();
        for (int c = from; c <= to; c *= 2) out.add(c);
        return out;
    }

    private static List<Long> chunkSizes(long buffBytes) {
        long max = Long.highestOneBit(Math.max(1, buffBytes / SLOTS));
        List<Long> out = new ArrayList<>();
        for (long c = Math.min(MIN_CHUNK_BYTES, max); c <= max; c *= 2) out.add(c);
        return out;
    }

    private static String why(TuneRequest req, Plan.Candidate pick, List<Plan.Candidate> priced, List<String> notes) {
        String others = priced.stream().filter(c -> c != pick).limit(3)
                .map(c -> c.algorithm().knobName() + " " + formatNs(c.predictedNs())).collect(Collectors.joining(", "));
        return req.collective().apiName() + " " + Sizes.formatBytes(req.bytes()) + " on " + req.topology().nranks() + " ranks ("
                + req.topology().describe() + "): " + pick.algorithm().knobName() + ", " + pick.channels()
                + (pick.channels() == 1 ? " channel" : " channels") + ", chunk " + Sizes.formatBytes(pick.chunkBytes())
                + ", predicted " + formatNs(pick.predictedNs()) + (others.isEmpty() ? "" : "; vs " + others)
                + (notes.isEmpty() ? "" : "; " + String.join("; ", notes));
    }

    private static String names(List<Algorithm> algorithms) {
        return algorithms.stream().map(Algorithm::knobName).collect(Collectors.joining(","));
    }

    private static String reasons(List<Algorithm> wanted, TuneRequest req, List<Plan.Candidate> excluded) {
        return wanted.stream().map(a -> excluded.stream().filter(c -> c.algorithm() == a).map(Plan.Candidate::notApplicable).findFirst()
                .orElse(a.knobName() + " does not implement " + req.collective().apiName())).collect(Collectors.joining("; "));
    }

    static String formatNs(long ns) {
        if (ns < 1_000) return ns + " ns";
        if (ns < 1_000_000) return String.format(Locale.ROOT, "%.1f us", ns / 1e3);
        if (ns < 1_000_000_000) return String.format(Locale.ROOT, "%.2f ms", ns / 1e6);
        return String.format(Locale.ROOT, "%.2f s", ns / 1e9);
    }
}
