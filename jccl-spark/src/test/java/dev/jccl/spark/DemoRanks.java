package dev.jccl.spark;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.Jccl;
import dev.jccl.bootstrap.MemoryStore;
import dev.jccl.cli.train.ModelSpec;
import dev.jccl.cli.train.RankTrainer;
import dev.jccl.cli.train.TrainSettings;
import dev.jccl.ddp.CommunicatorCollectives;
import dev.jccl.trace.Timeline;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** {@code jccl demo}'s own ranks ({@link RankTrainer}) as threads in this JVM, over shm: what a Spark run can match bit for bit. */
final class DemoRanks {
    private DemoRanks() {}

    /** Every rank's parameter checksum after training {@code settings} with the demo's model. */
    static long[] checksums(TrainSettings settings) throws Exception {
        int n = settings.ranks();
        long[] sums = new long[n];
        try (MemoryStore store = new MemoryStore(); ExecutorService pool = Executors.newFixedThreadPool(n)) {
            List<Future<?>> ranks = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                ranks.add(pool.submit(() -> {
                    CommOptions options = CommOptions.builder().rank(rank).size(n).store(store).transports("shm")
                            .knob("JCCL_TIMEOUT", "30s").build();
                    try (Communicator comm = Jccl.init(options);
                         RankTrainer trainer = new RankTrainer(ModelSpec.demo(), settings, new CommunicatorCollectives(comm), Timeline.DISABLED)) {
                        for (int step = 0; step < settings.steps(); step++) trainer.step(step);
                        sums[rank] = PartitionTraining.checksum(trainer.model().params());
                    }
                    return null;
                }));
            }
            for (Future<?> rank : ranks) rank.get(60, TimeUnit.SECONDS);
        }
        return sums;
    }
}
