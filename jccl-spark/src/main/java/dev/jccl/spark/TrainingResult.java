package dev.jccl.spark;

import java.util.Arrays;
import java.util.List;

/** The outcome of {@link DataParallelTraining#fit}: the trained parameters and every task's report, by rank. */
public record TrainingResult(float[] parameters, List<TaskReport> tasks) {
    public long[] checksums() {
        return tasks.stream().mapToLong(TaskReport::checksum).toArray();
    }

    /** Whether every task ended with bit-identical parameters. */
    public boolean checksumsAgree() {
        return Arrays.stream(checksums()).distinct().count() == 1;
    }

    /** Mean over tasks of each step's training loss. */
    public float[] meanLosses() {
        float[] mean = new float[tasks.getFirst().losses().length];
        for (TaskReport t : tasks) for (int s = 0; s < mean.length; s++) mean[s] += t.losses()[s] / tasks.size();
        return mean;
    }
}
