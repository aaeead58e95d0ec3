package dev.jccl.ddp;

import dev.jccl.CommAbortedException;
import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.trace.event.BucketEvent;
import dev.jccl.trace.Timeline;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Data-parallel training over a {@link GradientCollectives}: every rank holds the same model, computes
 * gradients on its own part of the batch, and before each optimizer step the gradients are averaged
 * over ranks, in buckets that leave while backward is still computing earlier layers.
 *
 * <p>The step protocol, on the training thread:
 * <pre>
 *   forward; backward, calling gradReady(name) as each parameter's gradient is complete;
 *   StepResult r = finish();            // waits for the buckets; gradients are now averaged
 *   if (r.shouldStep()) { clipGradNorm(max); optimizer over ownedRanges(); syncParameters(); }
 *   if (r.synced()) zeroGrad();
 * </pre>
 * Gradients accumulate (+=) in the model's buffers across backward passes until {@link #zeroGrad()};
 * a backward that does not synchronize ({@link #noSync()}, or the first K-1 of
 * {@link DdpOptions#accumulationSteps(int) K}) only adds to them, and the synchronizing one divides by
 * ranks x micro-steps, so K micro-batches of B equal one batch of K·B.
 *
 * <p>Not thread-safe: one training thread calls everything. Deterministic: buckets are launched in
 * index order on every rank, each collective gives every rank identical bits, and local sums run in a
 * fixed order, so the same inputs give the same parameters run after run.
 */
public final class DistributedDataParallel implements AutoCloseable {
    private final GradientCollectives coll;
    private final List<Param> params;
    private final Map<String, Integer> indexByName = new HashMap<>();
    private final BucketPlan plan;
    private final BucketState[] buckets;
    private final List<Ownership.Piece> owned;
    private final boolean[] ready;
    private final Arena arena = Arena.ofShared();
    private final Accumulation accumulation;
    private final LossScaler scaler;
    private final boolean allowUnused;
    private final boolean overlap;
    private final Timeline timeline;
    private final StepFlags flags = new StepFlags();
    private final CompletionWatcher watcher;

    private int nextLaunch;
    /** Synchronized steps completed so far. */
    private long steps;
    /** Time this step's gradReady calls spent waiting for buckets (sharded: before the last bucket leaves). */
    private long backwardWaitNs;
    private RuntimeException broken;

    DistributedDataParallel(DdpOptions o) {
        this.coll = o.collectives;
        this.params = List.copyOf(o.params);
        for (Param p : params) indexByName.put(p.name(), p.index());
        this.plan = BucketPlan.build(params, o.bucketBytes, o.communicationType, coll.worldSize(), o.sharding);
        this.buckets = plan.buckets().stream().map(b -> new BucketState(b, coll, arena)).toArray(BucketState[]::new);
        this.owned = Ownership.of(plan, params, coll.rank());
        this.ready = new boolean[params.size()];
        this.accumulation = new Accumulation(o.accumulationSteps, coll.worldSize());
        this.scaler = o.lossScaler;
        this.allowUnused = o.allowUnusedParameters;
        this.overlap = o.overlap;
        this.timeline = o.timeline;
        ParameterSync.broadcastFromRankZero(coll, buckets, params);
        this.watcher = new CompletionWatcher("jccl-ddp-watch-" + coll.rank());
    }

    public static DdpOptions builder(GradientCollectives collectives) {
        return new DdpOptions(collectives);
    }

    /** Data parallelism over every rank of {@code communicator}. */
    public static DdpOptions builder(Communicator communicator) {
        return new DdpOptions(new CommunicatorCollectives(communicator));
    }

    public BucketPlan bucketPlan() {
        return plan;
    }

    /** The loss scale the next backward must multiply its loss by (1 without loss scaling). */
    public float lossScale() {
        return scaler == null ? 1f : scaler.scale();
    }

    /** The gradient of {@code name} is complete for this backward; its bucket leaves once full. */
    public void gradReady(String name) {
        checkUsable();
        Integer i = indexByName.get(name);
        if (i == null) throw new IllegalArgumentException("gradReady: no parameter named '" + name + "' is registered");
        if (!syncsThisPass()) return;
        if (ready[i]) throw fail(new IllegalStateException("gradReady(" + name + ") called twice in one step"));
        try {
            markReady(params.get(i));
            if (overlap) launchInOrder();
            for (BucketState b : buckets) b.poll();
        } catch (RuntimeException e) {
            throw fail(e); // a collective that failed or could not start leaves the step half sent
        }
    }

    /**
     * Ends a backward pass. When it synchronizes: sends what is left, waits for every bucket, averages
     * (and unscales) the gradients in place and decides on overflow. A registered parameter that got no
     * gradient is an error naming it, unless unused parameters were allowed.
     */
    public StepResult finish() {
        checkUsable();
        long finishNs = Timeline.nowNs();
        float scale = lossScale();
        if (!syncsThisPass()) {
            int covered = accumulation.covered();
            accumulation.endPass(false);
            return new StepResult(false, covered, false, false, scale, CommTiming.NONE);
        }
        List<String> missing = new ArrayList<>();
        for (Param p : params) if (!ready[p.index()]) missing.add(p.name());
        if (!missing.isEmpty()) {
            if (!allowUnused) {
                throw fail(new IllegalStateException("parameters got no gradient this step: " + String.join(", ", missing)
                        + " (call gradReady for each, or allow unused parameters)"));
            }
        }
        try {
            for (String n : missing) markReady(params.get(indexByName.get(n)));
            launchInOrder();
            for (BucketState b : buckets) b.await();
        } catch (RuntimeException e) {
            throw fail(e);
        }
        long waitEndNs = Timeline.nowNs();
        boolean nonFinite;
        try {
            nonFinite = flags.unpackAllReduced(buckets, owned, plan.last(), accumulation.average());
        } catch (RuntimeException e) {
            throw fail(e);
        }
        boolean overflow = flags.overflowReduced() || nonFinite;
        boolean skipped = scaler != null && scaler.update(overflow);
        if (overflow) timeline.instant("optimizer", skipped ? "skipped: overflow" : "overflow", "loss scale " + scale);
        CommTiming timing = StepTiming.of(buckets, finishNs, waitEndNs, backwardWaitNs, timeline);
        int covered = accumulation.covered();
        flags.endStep(!skipped);
        resetStep();
        return new StepResult(true, covered, overflow, skipped, scale, timing);
    }

    /**
     * Global L2 norm of the averaged gradient after the last synchronized step, before any clipping.
     * Computed without a collective: replicated, from the gradient every rank holds; sharded, from the
     * shards' sum of squares that travelled in the last bucket. The same value on every rank.
     */
    public double gradNorm() {
        checkUsable();
        return Math.sqrt(flags.sumSquares(owned, plan.last()));
    }

    /** Scales the gradient so its global norm is at most {@code maxNorm}; returns the norm before clipping. */
    public double clipGradNorm(double maxNorm) {
        if (!(maxNorm > 0)) throw new IllegalArgumentException("max norm must be positive, got " + maxNorm);
        double norm = gradNorm();
        flags.markClipped();
        if (norm > maxNorm && Double.isFinite(norm)) {
            float coef = (float) (maxNorm / (norm + 1e-6));
            for (Ownership.Piece p : owned) GradientCodec.scale(p.param().grad(), p.from(), p.elements(), coef);
        }
        return norm;
    }

    /** Clamps every owned gradient element to [-limit, limit]. */
    public void clipGradValue(float limit) {
        if (!(limit > 0)) throw new IllegalArgumentException("clip value must be positive, got " + limit);
        flags.requireAveraged();
        for (Ownership.Piece p : owned) GradientCodec.clamp(p.param().grad(), p.from(), p.elements(), limit);
    }

    /** The gradient elements this rank holds averaged and must update (all of them unless sharded). */
    public List<GradRange> ownedRanges() {
        return owned.stream().map(p -> new GradRange(p.param().name(), p.from(), p.to())).toList();
    }

    /** Sharded: gathers every rank's updated parameter shards so all ranks hold the whole model again. */
    public void syncParameters() {
        checkUsable();
        ParameterSync.gatherShards(coll, buckets, params, owned);
    }

    /** Zeroes every gradient buffer (start of the next accumulation). */
    public void zeroGrad() {
        for (Param p : params) p.grad().fill((byte) 0);
    }

    /** Backward passes inside the returned scope only accumulate; close it before the synchronizing one. */
    public AutoCloseable noSync() {
        return accumulation.noSync();
    }

    @Override
    public void close() {
        for (BucketState b : buckets) {
            if (b.launched()) {
                try {
                    b.await();
                } catch (RuntimeException e) {
                    // Already failing; the memory must still not be freed under a running collective.
                    break;
                }
            }
        }
        watcher.close();
        arena.close();
    }

    private boolean syncsThisPass() {
        boolean syncs = accumulation.passSyncs(lossScale());
        if (syncs && !flags.begun()) flags.beginStep();
        return syncs;
    }

    private void markReady(Param p) {
        ready[p.index()] = true;
        BucketState b = buckets[plan.bucketOf(p.index())];
        b.localNonFinite |= GradientCodec.pack(p.grad(), 0, p.elements(), b.buffer, plan.offsetOf(p.index()), b.plan.type());
        b.ready++;
    }

    private void launchInOrder() {
        while (nextLaunch < buckets.length && buckets[nextLaunch].full()) {
            BucketState b = buckets[nextLaunch++];
            if (b.plan == plan.last()) backwardWaitNs += flags.writeTail(buckets, owned, b, accumulation.average());
            DataType type = b.plan.type();
            long launchNs = Timeline.nowNs();
            BucketEvent event = BucketEvent.recording() ? BucketEvent.begin(coll.rank(), steps, b.plan.index(), b.plan.bytes(),
                    b.plan.slots().size(), type.ncclName(), b.plan.scattered() ? "reduceScatter" : "allReduce") : null;
            b.launch = new Launch(b.plan.scattered() ? coll.reduceScatterSum(b.buffer, b.shard, type) : coll.allReduceSum(b.buffer, type),
                    launchNs, event);
            watcher.watch(b.launch);
        }
    }

    private void resetStep() {
        Arrays.fill(ready, false);
        for (BucketState b : buckets) b.reset();
        nextLaunch = 0;
        steps++;
        accumulation.endPass(true);
        backwardWaitNs = 0;
    }

    private void checkUsable() {
        if (broken != null) throw new IllegalStateException("unusable after an earlier error: " + broken.getMessage(), broken);
    }

    /** Marks this object unusable: after a failed or half-sent step the ranks' collective streams no longer agree. */
    private RuntimeException fail(RuntimeException e) {
        broken = e instanceof IllegalStateException && memoryFreed() ? new CommAbortedException("rank " + coll.rank()
                + ": the communicator was closed or aborted while this step used its bucket memory", e) : e;
        return broken;
    }

    /**
     * Bucket memory from {@link Communicator#allocate} is freed when the communicator closes, which an
     * abort on another thread (a cancelled job) may do mid-step: the step then fails as the abort, not as
     * the memory access it interrupted.
     */
    private boolean memoryFreed() {
        for (BucketState b : buckets) if (!b.buffer.scope().isAlive()) return true;
        return false;
    }
}
