package dev.jccl.algo;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Reference results: what every rank's OUTPUT must hold after a collective, computed directly from
 * all inputs with the algorithm's reduction order ({@link ReductionOrder}). Each order used is first
 * checked to contain every rank exactly once, so the reference cannot silently drop or double a
 * contribution.
 */
final class Expected {
    private Expected() {}

    static long[][] outputs(Algorithm algorithm, CollectiveArgs args, HostTopology topo, int nChannels, long grain,
                            long[][] inputs, Arith arith) {
        int n = topo.nranks();
        int count = Math.toIntExact(args.count());
        long[][] out = new long[n][];
        switch (args.collective()) {
            case ALL_REDUCE -> {
                long[] result = new long[count];
                for (int ch = 0; ch < nChannels; ch++) {
                    Channels.Slice slice = Channels.slice(count, nChannels, ch, grain);
                    for (long rel = 0; rel < slice.count(); rel++) {
                        int e = Math.toIntExact(slice.offset() + rel);
                        result[e] = checked(allReduceOrder(algorithm, topo, slice.count(), rel), n).eval(arith, r -> inputs[r][e]);
                    }
                }
                for (int r = 0; r < n; r++) out[r] = result.clone();
            }
            case REDUCE_SCATTER -> {
                for (int r = 0; r < n; r++) {
                    int rank = r;
                    ReductionOrder o = checked(ReductionOrder.ring(topo.order(), topo.position(r)), n);
                    out[r] = IntStream.range(0, count).mapToLong(i -> o.eval(arith, x -> inputs[x][rank * count + i])).toArray();
                }
            }
            case REDUCE -> {
                int[] chain = orderFrom(topo, args.root());
                ReductionOrder o = checked(algorithm == Algorithm.TREE ? ReductionOrder.binomial(chain, 0) : ReductionOrder.chain(chain), n);
                for (int r = 0; r < n; r++) out[r] = new long[0];
                out[args.root()] = IntStream.range(0, count).mapToLong(i -> o.eval(arith, x -> inputs[x][i])).toArray();
            }
            case ALL_GATHER -> {
                for (int r = 0; r < n; r++) {
                    out[r] = new long[n * count];
                    for (int j = 0; j < n; j++) System.arraycopy(inputs[j], 0, out[r], j * count, count);
                }
            }
            case BROADCAST -> {
                for (int r = 0; r < n; r++) out[r] = inputs[args.root()].clone();
            }
            case ALL_TO_ALL -> {
                for (int r = 0; r < n; r++) {
                    out[r] = new long[n * count];
                    for (int j = 0; j < n; j++) System.arraycopy(inputs[j], r * count, out[r], j * count, count);
                }
            }
            case BARRIER -> {
                for (int r = 0; r < n; r++) out[r] = new long[0];
            }
        }
        return out;
    }

    static int[] orderFrom(HostTopology topo, int first) {
        int n = topo.nranks();
        return IntStream.range(0, n).map(i -> topo.rankAt((topo.position(first) + i) % n)).toArray();
    }

    /** The order of element {@code rel} of a channel slice of {@code m} elements. */
    static ReductionOrder allReduceOrder(Algorithm algorithm, HostTopology topo, long m, long rel) {
        int n = topo.nranks();
        return switch (algorithm) {
            case RING -> ReductionOrder.ring(topo.order(), blockOf(Blocks.even(m, n), rel));
            case TREE -> ReductionOrder.binomial(topo.order(), 0);
            case HALVING_DOUBLING -> ReductionOrder.halvingDoubling(topo.order(), blockOf(Blocks.even(m, Integer.highestOneBit(n)), rel));
            case RECURSIVE_DOUBLING -> ReductionOrder.recursiveDoubling(topo.order());
            case HIERARCHICAL -> {
                int local = topo.ranksOn(0).length;
                Blocks intra = Blocks.even(m, local);
                int l = blockOf(intra, rel);
                int q = blockOf(Blocks.even(intra.count(l), topo.hosts()), rel - intra.offset(l));
                List<ReductionOrder> hostSums = new ArrayList<>();
                for (int h = 0; h < topo.hosts(); h++) hostSums.add(ReductionOrder.ring(topo.ranksOn(h), l));
                yield ReductionOrder.ringOf(hostSums, q);
            }
            default -> throw new IllegalArgumentException(algorithm + " is not an allreduce");
        };
    }

    static int blockOf(Blocks blocks, long rel) {
        for (int b = 0; b < blocks.parts(); b++) if (rel < blocks.offset(b + 1)) return b;
        throw new IllegalArgumentException("element " + rel + " outside " + blocks);
    }

    private static ReductionOrder checked(ReductionOrder o, int n) {
        List<Integer> leaves = new ArrayList<>(o.leaves());
        leaves.sort(null);
        assertEquals(IntStream.range(0, n).boxed().toList(), leaves, "reference order must hold every rank once: " + o);
        return o;
    }
}
