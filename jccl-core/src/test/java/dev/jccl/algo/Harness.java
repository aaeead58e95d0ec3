package dev.jccl.algo;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs a collective on simulated ranks and checks every rank's OUTPUT against {@link Expected}
 * element by element, bit for bit; checks that INPUT is never written (out of place); and returns
 * the traffic each rank sent.
 */
final class Harness {
    private Harness() {}

    record Case(Algorithm algorithm, CollectiveArgs args, HostTopology topology, int nChannels, long grain, boolean inPlace) {
        Case {
            Objects.requireNonNull(topology);
        }

        static Case of(Algorithm a, CollectiveArgs args, HostTopology t, int nChannels, boolean inPlace) {
            return new Case(a, args, t, nChannels, 1, inPlace);
        }

        @Override
        public String toString() {
            return args.collective().apiName() + "/" + algorithm.knobName() + " count=" + args.count()
                    + (args.collective().rooted() ? " root=" + args.root() : "") + " on " + topology.describe()
                    + " " + Channels.class.getSimpleName().toLowerCase() + "=" + nChannels + " grain=" + grain
                    + (inPlace ? " in-place" : " out-of-place");
        }
    }

    /** Simulator-independent result: per-rank traffic summed over channels, knowledge OR-ed over them. */
    record Outcome(long[] sentElems, long[] crossHostElems, long[] knowledge) {}

    interface Simulator {
        Outcome run(List<RankSchedule> schedules, List<SimMemory> memories, Arith arith, HostTopology topology);
    }

    static Simulator steps() {
        return (s, m, a, t) -> {
            StepSimulator.Traffic tr = new StepSimulator(s, m, a, t).run();
            return new Outcome(tr.sentElems(), tr.crossHostElems(), new long[s.size()]);
        };
    }

    static Simulator chunks(long chunkElems, int slots, long seed) {
        return (s, m, a, t) -> new Outcome(new long[s.size()], new long[s.size()], new ChunkSimulator(s, m, a, chunkElems, slots, seed).run());
    }

    /** A broken executor that ignores the hazard waits. */
    static Simulator chunksIgnoringWaits(long chunkElems, int slots, long seed) {
        return (s, m, a, t) -> new Outcome(new long[s.size()], new long[s.size()],
                new ChunkSimulator(s, m, a, chunkElems, slots, seed, true).run());
    }

    static Outcome run(Case c, Arith arith, Simulator sim) {
        return run(c, arith, sim, UnaryOperator.identity());
    }

    /** As {@link #run(Case, Arith, Simulator)}, with a hook that may alter the schedules (to test the checks). */
    static Outcome run(Case c, Arith arith, Simulator sim, UnaryOperator<List<RankSchedule>> alter) {
        int n = c.topology().nranks();
        List<RankSchedule> first = Schedules.buildAll(c.algorithm(), c.args(), c.topology(), 0, c.nChannels(), c.grain());
        long[][] inputs = new long[n][];
        List<SimMemory> memories = new ArrayList<>();
        SplittableRandom random = new SplittableRandom(c.toString().hashCode() * 31L + arith.ordinal());
        for (int r = 0; r < n; r++) {
            inputs[r] = new long[Math.toIntExact(first.get(r).inputElems())];
            for (int i = 0; i < inputs[r].length; i++) inputs[r][i] = arith.sample(random);
            Placement p = c.inPlace() ? Placement.inPlace(c.args(), r) : Placement.DISTINCT;
            memories.add(new SimMemory(p, inputs[r], first.get(r).outputElems()));
        }
        long[] sent = new long[n];
        long[] cross = new long[n];
        long[] knowledge = new long[n];
        for (int ch = 0; ch < c.nChannels(); ch++) {
            List<RankSchedule> schedules = ch == 0 ? first : Schedules.buildAll(c.algorithm(), c.args(), c.topology(), ch, c.nChannels(), c.grain());
            Outcome o;
            try {
                o = sim.run(alter.apply(schedules), memories, arith, c.topology());
            } catch (AssertionError e) {
                throw new AssertionError(c + " channel " + ch + ": " + e.getMessage(), e);
            }
            for (int r = 0; r < n; r++) {
                sent[r] += o.sentElems()[r];
                cross[r] += o.crossHostElems()[r];
                knowledge[r] |= o.knowledge()[r];
            }
        }
        long[][] expected = Expected.outputs(c.algorithm(), c.args(), c.topology(), c.nChannels(), c.grain(), inputs, arith);
        for (int r = 0; r < n; r++) {
            compare(c + " " + arith + ": OUTPUT of rank " + r, expected[r], memories.get(r).output(), arith);
            if (!c.inPlace()) compare(c + ": INPUT of rank " + r + " was written", inputs[r], memories.get(r).input(), arith);
        }
        return new Outcome(sent, cross, knowledge);
    }

    static void compare(String what, long[] expected, long[] actual, Arith arith) {
        if (expected.length != actual.length) fail(what + ": length " + actual.length + ", expected " + expected.length);
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) {
                fail(what + ": element " + i + " is " + (actual[i] == SimMemory.POISON ? "never written" : arith.show(actual[i]))
                        + ", expected " + arith.show(expected[i]));
            }
        }
    }
}
