package dev.jccl.spark;

import java.io.Serializable;

/**
 * What one task of a training stage reports to the driver. Times are means over the steps after
 * warm-up, in milliseconds; compute leaves out time backward spent waiting for buckets.
 *
 * @param checksum   CRC-32C over the float32 bits of the task's final parameters
 * @param losses     the task's mean training loss of every step
 * @param parameters the final parameters; only task 0 sends them (every task holds the same)
 */
public record TaskReport(int rank, String host, long checksum, float[] losses, double stepMs, double computeMs,
                         double exposedCommMs, double hiddenCommMs, long bytesPerStep, float[] parameters)
        implements Serializable {
    /** Step time that is neither compute nor exposed communication: data handling, bookkeeping. */
    public double otherMs() {
        return Math.max(0, stepMs - computeMs - exposedCommMs);
    }
}
