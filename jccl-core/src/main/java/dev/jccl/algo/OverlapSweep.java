package dev.jccl.algo;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Finds, for each operation y, the earlier operations x that touch memory y touches where at
 * least one of the two writes: the conflict lists of {@link ChunkHazards}. Accesses are swept per
 * memory space in order of their start; an access is compared only with those still open at its
 * start, which all overlap it. The cost is O(a log a + overlapping pairs) for a accesses.
 */
final class OverlapSweep {
    private OverlapSweep() {}

    interface AccessVisitor {
        void access(int space, long start, long count, boolean write);
    }

    interface Accesses {
        void forEach(int op, AccessVisitor visit);
    }

    private record Interval(int op, int space, long start, long end, boolean write) {}

    static int[][] conflicts(int ops, Accesses accesses) {
        List<Interval> all = new ArrayList<>();
        for (int op = 0; op < ops; op++) {
            int o = op;
            accesses.forEach(op, (space, start, count, write) -> {
                if (count > 0) all.add(new Interval(o, space, start, start + count, write));
            });
        }
        all.sort(Comparator.comparingInt(Interval::space).thenComparingLong(Interval::start));
        List<List<Integer>> earlier = new ArrayList<>();
        for (int i = 0; i < ops; i++) earlier.add(new ArrayList<>());
        PriorityQueue<Interval> open = new PriorityQueue<>(Comparator.comparingLong(Interval::end));
        int space = Integer.MIN_VALUE;
        for (Interval b : all) {
            if (b.space() != space) {
                open.clear();
                space = b.space();
            }
            while (!open.isEmpty() && open.peek().end() <= b.start()) open.poll();
            for (Interval a : open) {
                if (a.op() == b.op() || !(a.write() || b.write())) continue;
                if (a.op() < b.op()) earlier.get(b.op()).add(a.op());
                else earlier.get(a.op()).add(b.op());
            }
            open.add(b);
        }
        int[][] out = new int[ops][];
        for (int y = 0; y < ops; y++) out[y] = earlier.get(y).stream().mapToInt(Integer::intValue).distinct().sorted().toArray();
        return out;
    }
}
