package dev.jccl.algo;

import java.util.ArrayList;
import java.util.List;

/**
 * Collects steps, dropping operations of zero elements. Dropping is safe because both sides of a
 * transfer compute the same count from the same block, so a sender drops exactly the sends whose
 * receives the peer drops.
 */
final class ScheduleBuilder {
    private final List<Step> steps = new ArrayList<>();
    private long scratchElems;

    ScheduleBuilder step(Send send, LocalCopy copy, Recv recv) {
        Send s = send == null || send.from().isEmpty() ? null : send;
        LocalCopy c = copy == null || copy.from().isEmpty() ? null : copy;
        Recv r = recv == null || recv.into().isEmpty() ? null : recv;
        if (s != null || c != null || r != null) steps.add(new Step(s, c, r));
        return this;
    }

    ScheduleBuilder send(int peer, Span from) {
        return step(new Send(peer, from), null, null);
    }

    ScheduleBuilder recv(Recv recv) {
        return step(null, null, recv);
    }

    ScheduleBuilder copy(Span from, Span into) {
        return step(null, new LocalCopy(from, into), null);
    }

    ScheduleBuilder needScratch(long elems) {
        scratchElems = Math.max(scratchElems, elems);
        return this;
    }

    RankSchedule build(CollectiveArgs args, Algorithm algorithm, int rank, int nranks) {
        long n = nranks;
        long c = args.count();
        return switch (args.collective()) {
            case ALL_REDUCE -> new RankSchedule(args.collective(), algorithm, rank, nranks, c, c, scratchElems, steps);
            case REDUCE_SCATTER -> new RankSchedule(args.collective(), algorithm, rank, nranks, n * c, c, scratchElems, steps);
            case ALL_GATHER -> new RankSchedule(args.collective(), algorithm, rank, nranks, c, n * c, scratchElems, steps);
            case ALL_TO_ALL -> new RankSchedule(args.collective(), algorithm, rank, nranks, n * c, n * c, scratchElems, steps);
            case BROADCAST -> new RankSchedule(args.collective(), algorithm, rank, nranks, rank == args.root() ? c : 0, c, scratchElems, steps);
            case REDUCE -> new RankSchedule(args.collective(), algorithm, rank, nranks, c, rank == args.root() ? c : 0, scratchElems, steps);
            case BARRIER -> new RankSchedule(args.collective(), algorithm, rank, nranks, 0, 0, scratchElems, steps);
        };
    }
}
