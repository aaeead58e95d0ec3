package dev.jccl.ddp;

/**
 * What {@link DistributedDataParallel#finish()} decided for one backward pass.
 *
 * @param synced      gradients were communicated and averaged; the optimizer may step (unless skipped)
 * @param microSteps  backward passes whose gradients this step's average covers
 * @param overflow    some gradient was infinite or NaN on some rank (same verdict on every rank)
 * @param skipped     the optimizer must not step: overflow under dynamic loss scaling
 * @param lossScale   the loss scale this step's gradients carried (1 without loss scaling)
 * @param timing      communication timing of this step ({@link CommTiming#NONE} when not synced)
 */
public record StepResult(boolean synced, int microSteps, boolean overflow, boolean skipped, float lossScale,
                         CommTiming timing) {
    /** True when the optimizer should apply this step's gradients. */
    public boolean shouldStep() {
        return synced && !skipped;
    }
}
