package dev.jccl.ddp;

/**
 * Which backward passes synchronize and what the synchronizing one divides by. A pass synchronizes
 * when no {@code noSync()} scope is open and it completes the configured number of micro-steps; its
 * average divides by ranks x micro-steps covered x loss scale, in one multiply. The decision is taken
 * once per pass, at its first gradReady (or at finish when there was none), and holds until finish.
 */
final class Accumulation {
    private final int steps;
    private final int worldSize;
    private int microSteps;
    private int noSyncDepth;
    private Boolean passSyncs;
    private float average;

    Accumulation(int steps, int worldSize) {
        this.steps = steps;
        this.worldSize = worldSize;
    }

    /** Whether the current pass synchronizes; decided on the first call of the pass. */
    boolean passSyncs(float lossScale) {
        if (passSyncs == null) {
            passSyncs = noSyncDepth == 0 && microSteps + 1 >= steps;
            if (passSyncs) average = (float) (1.0 / ((double) worldSize * (microSteps + 1) * lossScale));
        }
        return passSyncs;
    }

    /** 1 / (ranks x micro-steps x loss scale) of the synchronizing pass. */
    float average() {
        return average;
    }

    /** Micro-steps the current pass completes, itself included. */
    int covered() {
        return microSteps + 1;
    }

    /** Ends the current pass: counted towards the next synchronization, or the count restarts after one. */
    void endPass(boolean synced) {
        passSyncs = null;
        microSteps = synced ? 0 : microSteps + 1;
    }

    AutoCloseable noSync() {
        noSyncDepth++;
        boolean[] closed = {false};
        return () -> {
            if (!closed[0]) {
                closed[0] = true;
                noSyncDepth--;
            }
        };
    }
}
