package dev.jccl.cli.plan;

import dev.jccl.ddp.DdpOptions;
import dev.jccl.plan.LinkSpec;
import dev.jccl.plan.PlanRequest;
import dev.jccl.util.Sizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code jccl plan}: how long gradient sync takes on a cluster, and what share of a training step
 * that is, from the same schedules and cost model the tuner runs with; {@code --simulate} runs the
 * schedules chunk by chunk against a modelled network instead.
 */
@Command(name = "plan", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Predict gradient-sync time per allreduce algorithm for a model on a cluster (no ranks are started).",
                "Example: jccl plan --params 7B --hosts 8 --ranks-per-host 8 --inter ib-200",
                "Links: a preset (nvlink, pcie, shm; ib-100/200/400, roce-100/200/400, tcp, tcp-100) or BANDWIDTH,LATENCY"
                        + " such as 25GB/s,2us or 200Gb/s,5us. GB = 10^9 bytes."})
public final class PlanCommand implements Callable<Integer> {
    @Option(names = "--params", paramLabel = "N", description = "parameter count: 7B, 1.3B, 350M, 7e9")
    String params;
    @Option(names = "--bytes", paramLabel = "SIZE", description = "gradient size in bytes instead of --params: 28G, 512M (binary multiples)")
    String bytes;
    @Option(names = "--grad-type", paramLabel = "T", defaultValue = "fp32", description = "gradient type: fp32, bf16, fp16 (default ${DEFAULT-VALUE})")
    String gradType;
    @Option(names = "--comm-precision", paramLabel = "T", description = "type on the wire: fp32, bf16, fp16 (default: the gradient type)")
    String commType;
    @Option(names = "--hosts", paramLabel = "H", defaultValue = "1", description = "hosts (default ${DEFAULT-VALUE})")
    int hosts;
    @Option(names = "--ranks-per-host", paramLabel = "L", defaultValue = "8", description = "ranks (GPUs) per host (default ${DEFAULT-VALUE})")
    int ranksPerHost;
    @Option(names = "--intra", paramLabel = "LINK", defaultValue = "nvlink", description = "intra-host link, per rank (default ${DEFAULT-VALUE})")
    String intra;
    @Option(names = "--inter", paramLabel = "LINK", defaultValue = "ib-200", description = "inter-host link, per host NIC (default ${DEFAULT-VALUE})")
    String inter;
    @Option(names = "--reduce-bw", paramLabel = "GB/s", description = "how fast a rank reduces incoming data (default 500: a GPU; a CPU core: 4-10)")
    Double reduceGBps;
    @Option(names = "--measured", paramLabel = "FILE",
            description = "alpha/beta per link from a CSV file (link,alpha_us,bandwidth_GBps); overrides --intra/--inter")
    Path measured;
    @Option(names = "--compute", paramLabel = "TIME", description = "forward + backward of one micro-step per rank: 800ms, 1.2s")
    String compute;
    @Option(names = "--flops", paramLabel = "F", description = "instead of --compute: FLOPs of one micro-step per rank, e.g. 4.2e15")
    Double flops;
    @Option(names = "--tokens", paramLabel = "T", description = "instead of --flops: tokens per rank per micro-step (FLOPs = 6 x params x tokens)")
    Long tokens;
    @Option(names = "--tflops", paramLabel = "T", defaultValue = "400",
            description = "achieved TFLOP/s per rank for --flops/--tokens (default ${DEFAULT-VALUE})")
    double tflops;
    @Option(names = "--bucket-size", paramLabel = "SIZE", description = "gradient bucket (default 25M, as ddp)")
    String bucket;
    @Option(names = "--accum-steps", paramLabel = "K", defaultValue = "1", description = "micro-steps per optimizer step (default ${DEFAULT-VALUE})")
    int accumulation;
    @Option(names = "--clip", description = "gradient clipping by global norm")
    boolean clip;
    @Option(names = "--no-overlap", description = "sync starts after backward instead of bucket by bucket during it")
    boolean noOverlap;
    @Option(names = "--simulate", description = "also run the real schedules against a modelled network (64, 256, 1024 ranks)")
    boolean simulate;
    @Option(names = "--sim-ranks", split = ",", paramLabel = "N", description = "rank counts for --simulate (default 64,256,1024)")
    List<Integer> simRanks = List.of(64, 256, 1024);
    @Option(names = "--sim-bytes", paramLabel = "SIZE", description = "allreduce size for --simulate (default: the gradient as communicated)")
    String simBytes;
    @Option(names = "--json", description = "print one JSON object instead of the table")
    boolean json;
    @Option(names = "--report", paramLabel = "FILE", description = "write an HTML page with a chart of sync time against rank count")
    Path report;

    @Override
    public Integer call() throws IOException {
        PlanJob job = job();
        PlanOutcome outcome = PlanOutcome.of(job);
        long simSize = simBytes == null ? job.request().bytes() : positiveBytes("--sim-bytes", simBytes);
        List<SimRow> sims = simulate ? SimRow.run(job, simRanks, simSize) : List.of();
        if (json) System.out.println(PlanJson.render(outcome, sims));
        else PlanText.print(System.out, outcome, sims);
        if (report != null) {
            PlanHtml.write(report, outcome, sims);
            if (!json) System.out.println("report: " + report.toAbsolutePath());
        }
        return 0;
    }

    /** Checks every flag and builds the job; a bad value fails with one line naming the flag. */
    PlanJob job() throws IOException {
        if ((params == null) == (bytes == null)) throw new IllegalArgumentException("give the model size as --params N or --bytes SIZE (one of them)");
        int grad = typeBytes("--grad-type", gradType);
        int comm = commType == null ? grad : typeBytes("--comm-precision", commType);
        long count = params != null ? ModelSize.parseParams(params) : positiveBytes("--bytes", bytes) / grad;
        if (count < 1) throw new IllegalArgumentException("--bytes " + bytes + " is smaller than one " + gradType + " element");
        if (hosts < 1) throw new IllegalArgumentException("--hosts must be at least 1, got " + hosts);
        if (ranksPerHost < 1) throw new IllegalArgumentException("--ranks-per-host must be at least 1, got " + ranksPerHost);
        if ((long) hosts * ranksPerHost > PlanRequest.MAX_RANKS) {
            throw new IllegalArgumentException("--hosts " + hosts + " x --ranks-per-host " + ranksPerHost + " = " + (long) hosts * ranksPerHost
                    + " ranks, more than the " + PlanRequest.MAX_RANKS + " the planner models");
        }
        if (accumulation < 1) throw new IllegalArgumentException("--accum-steps must be at least 1, got " + accumulation);
        if (reduceGBps != null && !(reduceGBps > 0)) throw new IllegalArgumentException("--reduce-bw must be > 0 GB/s, got " + reduceGBps);
        if (!(tflops > 0)) throw new IllegalArgumentException("--tflops must be > 0, got " + tflops);
        long wire;
        try {
            wire = Math.multiplyExact(count, comm);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("--params " + params + " is too large", e);
        }
        LinkSpec in = link("--intra", intra);
        LinkSpec out = link("--inter", inter);
        double reduce = reduceGBps != null ? reduceGBps : PlanRequest.DEFAULT_REDUCE_GBPS;
        String from = "presets";
        if (measured != null) {
            MeasuredLinks m = MeasuredLinks.read(measured);
            in = m.intra().orElse(in);
            out = m.inter().orElse(out);
            reduce = m.reduceGBps().orElse(reduce);
            from = "measured (" + measured + ")";
        }
        PlanRequest req = new PlanRequest(wire, hosts, ranksPerHost, in, out, reduce);
        long bucketBytes = bucket == null ? DdpOptions.DEFAULT_BUCKET_BYTES : positiveBytes("--bucket-size", bucket);
        return new PlanJob(req, params == null ? 0 : count, grad, comm, computeNs(count), bucketBytes, accumulation, clip, !noOverlap, from);
    }

    private long computeNs(long count) {
        int given = (compute != null ? 1 : 0) + (flops != null ? 1 : 0) + (tokens != null ? 1 : 0);
        if (given > 1) throw new IllegalArgumentException("give one of --compute, --flops and --tokens");
        if (compute != null) {
            long ns = Sizes.parseDurationNs(compute);
            if (ns <= 0) throw new IllegalArgumentException("--compute must be a positive duration, got " + compute);
            return ns;
        }
        double f = flops != null ? flops : tokens != null ? 6.0 * count * tokens : 0;
        if (flops != null && !(flops > 0)) throw new IllegalArgumentException("--flops must be > 0, got " + flops);
        if (tokens != null && tokens < 1) throw new IllegalArgumentException("--tokens must be at least 1, got " + tokens);
        return Math.round(f / (tflops * 1e12) * 1e9);
    }

    private static LinkSpec link(String flag, String value) {
        try {
            return LinkSpec.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + ": " + e.getMessage(), e);
        }
    }

    static long positiveBytes(String flag, String value) {
        long b;
        try {
            b = Sizes.parseBytes(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(flag + ": " + e.getMessage(), e);
        }
        if (b < 1) throw new IllegalArgumentException(flag + " must be at least 1 byte, got " + value);
        return b;
    }

    static int typeBytes(String flag, String type) {
        return switch (type.toLowerCase(Locale.ROOT)) {
            case "fp32", "float32", "float" -> 4;
            case "bf16", "bfloat16", "fp16", "float16", "half" -> 2;
            default -> throw new IllegalArgumentException(flag + ": unknown type '" + type + "'; expected fp32, bf16 or fp16");
        };
    }
}
