package dev.jccl.algo;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one channel of a collective, all ranks, step by step: a step's send puts a message on the
 * queue from this rank to its peer, its copy runs, and its receive takes the message at the head of
 * the queue from its peer, or waits. Queues are unbounded. A receive whose message has another count
 * than it expects, a send nobody receives, and a deadlock all fail the run with what each rank was
 * doing, so a mismatched schedule is reported rather than silently run.
 */
final class StepSimulator {
    private record Message(long[] payload, int fromStep) {}

    private final List<RankSchedule> schedules;
    private final List<SimMemory> memories;
    private final Arith arith;
    private final HostTopology topology;
    private final int n;
    /** Messages in flight per ordered pair, at index from * n + to. */
    private final List<ArrayDeque<Message>> queues = new ArrayList<>();
    private final long[] sentElems;
    private final long[] crossHostElems;

    StepSimulator(List<RankSchedule> schedules, List<SimMemory> memories, Arith arith, HostTopology topology) {
        this.schedules = schedules;
        this.memories = memories;
        this.arith = arith;
        this.topology = topology;
        this.n = schedules.size();
        for (int i = 0; i < n * n; i++) queues.add(new ArrayDeque<>());
        this.sentElems = new long[n];
        this.crossHostElems = new long[n];
    }

    /** Elements each rank sent, and of those, to another host. */
    record Traffic(long[] sentElems, long[] crossHostElems) {}

    Traffic run() {
        int[] pc = new int[n];
        boolean[] started = new boolean[n];
        long[][] scratch = new long[n][];
        for (int r = 0; r < n; r++) {
            scratch[r] = new long[Math.toIntExact(schedules.get(r).scratchElems())];
            java.util.Arrays.fill(scratch[r], SimMemory.POISON);
        }
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int r = 0; r < n; r++) {
                List<Step> steps = schedules.get(r).steps();
                while (pc[r] < steps.size()) {
                    Step s = steps.get(pc[r]);
                    if (!started[r]) {
                        // Program order within a step: send, copy, then receive.
                        Send send = s.send();
                        if (send != null) {
                            queues.get(r * n + send.peer()).add(new Message(memories.get(r).read(send.from(), scratch[r]), pc[r]));
                            sentElems[r] += send.from().count();
                            if (!topology.sameHost(r, send.peer())) crossHostElems[r] += send.from().count();
                        }
                        if (s.copy() != null) copy(r, s.copy(), scratch[r]);
                        started[r] = true;
                        progress = true;
                    }
                    if (s.recv() != null) {
                        Message m = queues.get(s.recv().peer() * n + r).poll();
                        if (m == null) break;
                        if (m.payload().length != s.recv().count()) {
                            throw new AssertionError("rank " + r + " step " + pc[r] + " expects " + s.recv().count()
                                    + " elements from rank " + s.recv().peer() + " but its step " + m.fromStep() + " sent "
                                    + m.payload().length + "\n" + schedules.get(r).describe() + schedules.get(s.recv().peer()).describe());
                        }
                        memories.get(r).apply(s.recv().into(), s.recv().operand(), s.recv().incomingFirst(), m.payload(), arith, scratch[r]);
                    }
                    pc[r]++;
                    started[r] = false;
                    progress = true;
                }
            }
        }
        for (int r = 0; r < n; r++) {
            if (pc[r] < schedules.get(r).steps().size()) throw new AssertionError("deadlock: " + state(pc));
        }
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                if (!queues.get(a * n + b).isEmpty()) {
                    throw new AssertionError("rank " + a + " step " + queues.get(a * n + b).peek().fromStep() + " sent "
                            + queues.get(a * n + b).peek().payload().length + " elements to rank " + b + " that no receive took");
                }
            }
        }
        return new Traffic(sentElems, crossHostElems);
    }

    private void copy(int r, LocalCopy c, long[] scratch) {
        memories.get(r).apply(c.into(), null, false, memories.get(r).read(c.from(), scratch), arith, scratch);
    }

    private String state(int[] pc) {
        StringBuilder b = new StringBuilder();
        for (int r = 0; r < n; r++) {
            List<Step> steps = schedules.get(r).steps();
            b.append("\n  rank ").append(r).append(pc[r] < steps.size() ? " blocked at step " + pc[r] + ": " + steps.get(pc[r]) : " done");
        }
        return b.toString();
    }
}
