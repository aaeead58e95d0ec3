package dev.jccl.algo;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** The sweep finds exactly the conflicts of the quadratic definition (ChunkHazardsTest covers the waits built from them). */
@Tag("unit")
class OverlapSweepTest {
    private record A(int space, long start, long count, boolean write) {}

    @Test
    void randomAccessesGiveTheQuadraticAnswer() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int round = 0; round < 200; round++) {
            int ops = 1 + rnd.nextInt(40);
            List<List<A>> acc = new ArrayList<>();
            for (int op = 0; op < ops; op++) {
                List<A> l = new ArrayList<>();
                for (int k = 1 + rnd.nextInt(2); k > 0; k--) l.add(new A(rnd.nextInt(3), rnd.nextInt(100), 1 + rnd.nextInt(30), rnd.nextBoolean()));
                acc.add(l);
            }
            OverlapSweep.Accesses a = (op, visit) -> acc.get(op).forEach(x -> visit.access(x.space(), x.start(), x.count(), x.write()));
            int[][] fast = OverlapSweep.conflicts(ops, a);
            for (int y = 0; y < ops; y++) assertArrayEquals(quadratic(acc, y), fast[y], "round " + round + " op " + y);
        }
    }

    private static int[] quadratic(List<List<A>> acc, int y) {
        List<Integer> out = new ArrayList<>();
        for (int x = 0; x < y; x++) {
            boolean hit = false;
            for (A a : acc.get(x)) {
                for (A b : acc.get(y)) {
                    hit |= a.space() == b.space() && (a.write() || b.write())
                            && Math.max(a.start(), b.start()) < Math.min(a.start() + a.count(), b.start() + b.count());
                }
            }
            if (hit) out.add(x);
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }
}
