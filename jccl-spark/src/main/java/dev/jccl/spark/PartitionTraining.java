package dev.jccl.spark;

import dev.jccl.Communicator;
import dev.jccl.ddp.DdpOptions;
import dev.jccl.ddp.DistributedDataParallel;
import dev.jccl.ddp.StepResult;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.sql.Row;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.zip.CRC32C;

/** One task of a {@link DataParallelTraining} stage: its shard, its replica, its share of every step. */
final class PartitionTraining {
    private PartitionTraining() {}

    static Iterator<TaskReport> run(Iterator<Row> rows, BarrierTaskContext context, DataParallelTraining.Plan plan) {
        List<Row> shard = new ArrayList<>();
        rows.forEachRemaining(shard::add);
        checkShards(context, shard.size(), plan.batchPerTask());
        Communicator comm = JcclSpark.communicator(context, plan.knobs());
        TaskModel model = null;
        try {
            model = plan.factory().create();
            TaskReport report = train(comm, model, shard, plan, BarrierRendezvous.hostOf(context.getTaskInfos()[comm.rank()]));
            return List.of(report).iterator();
        } catch (RuntimeException | Error e) {
            // Abort before anything else closes: the peers, blocked in this step's allreduce, learn
            // at once that this rank failed instead of waiting for it until JCCL_TIMEOUT.
            comm.abort();
            if (model != null) model.failed(e);
            throw e;
        } finally {
            if (model != null) model.close();
            comm.close();
        }
    }

    /** Every task learns every shard's size first, so a too-small shard fails all tasks alike, naming it. */
    private static void checkShards(BarrierTaskContext context, int rows, int batch) {
        String[] sizes = context.allGather(Integer.toString(rows));
        StringBuilder small = new StringBuilder();
        for (int p = 0; p < sizes.length; p++) {
            if (Integer.parseInt(sizes[p]) < batch) small.append(small.isEmpty() ? "" : ", ").append("partition ").append(p).append(" has ").append(sizes[p]);
        }
        if (!small.isEmpty()) {
            throw new IllegalArgumentException("every partition needs at least one batch of " + batch + " rows: " + small + " (repartition the rows)");
        }
    }

    private static TaskReport train(Communicator comm, TaskModel model, List<Row> shard, DataParallelTraining.Plan plan, String host) {
        DdpOptions options = DistributedDataParallel.builder(comm).bucketBytes(plan.bucketBytes());
        model.registerParameters(options);
        int b = plan.batchPerTask();
        int warmup = plan.steps() / 10; // the first steps run interpreted while the JIT compiles
        float[] losses = new float[plan.steps()];
        long step = 0, compute = 0, exposed = 0, hidden = 0, bytes = 0;
        try (DistributedDataParallel ddp = options.build()) { // build() broadcasts task 0's parameters
            for (int s = 0; s < plan.steps(); s++) {
                List<Row> batch = new ArrayList<>(b);
                for (int i = 0; i < b; i++) batch.add(shard.get((int) (((long) s * b + i) % shard.size())));
                long t0 = System.nanoTime();
                losses[s] = model.forwardBackward(batch, ddp.lossScale(), ddp::gradReady);
                long t1 = System.nanoTime();
                StepResult r = ddp.finish();
                long t2 = System.nanoTime();
                if (r.shouldStep()) model.optimizerStep(s);
                ddp.zeroGrad();
                long t3 = System.nanoTime();
                if (s < warmup) continue;
                step += t3 - t0;
                compute += (t1 - t0) - r.timing().backwardWaitNs() + (t3 - t2);
                exposed += r.timing().exposedNs();
                hidden += r.timing().hiddenNs();
                bytes += r.timing().bytes();
            }
        }
        float[] params = model.parameters();
        int timed = plan.steps() - warmup;
        return new TaskReport(comm.rank(), host, checksum(params), losses, ms(step, timed), ms(compute, timed),
                ms(exposed, timed), ms(hidden, timed), bytes / timed, comm.rank() == 0 ? params : null);
    }

    /** CRC-32C over the little-endian float32 bits of every parameter, in order (as {@code jccl demo} prints it). */
    static long checksum(float[] params) {
        ByteBuffer buf = ByteBuffer.allocate(params.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buf.asFloatBuffer().put(params);
        CRC32C crc = new CRC32C();
        crc.update(buf);
        return crc.getValue();
    }

    private static double ms(long ns, int steps) {
        return ns / 1e6 / steps;
    }
}
