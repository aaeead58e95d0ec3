package dev.jccl.comm;

import dev.jccl.config.Config;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsProvider;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Locale;
import java.util.Map;

/**
 * Why the executor registers callers' buffers instead of staging them: the cost of a registration
 * (first use), of a cache hit (every later use), and of the staging copy it avoids.
 * {@code bench/run-main.sh dev.jccl.comm.RegistrationBench [shm|tcp]}. Not a test.
 */
public final class RegistrationBench {
    public static void main(String[] args) {
        String name = args.length > 0 ? args[0] : "shm";
        VerbsProvider provider = Providers.require(name);
        Config config = Config.of(Map.of());
        try (DeviceContext ctx = provider.open(provider.devices(config).getFirst(), config); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = ctx.allocPd();
            UserMemory cache = new UserMemory();
            int n = 2000;
            MemorySegment[] segs = new MemorySegment[n];
            for (int i = 0; i < n; i++) segs[i] = arena.allocate(4096, 64);
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                MemoryRegion r = pd.register(segs[i], java.util.EnumSet.noneOf(dev.jccl.verbs.Access.class));
                pd.deregister(r);
            }
            double missUs = (System.nanoTime() - t0) / 1e3 / n;
            MemorySegment big = arena.allocate(64L << 20, 64);
            cache.region(big, pd);
            long hits = 1_000_000;
            t0 = System.nanoTime();
            for (long i = 0; i < hits; i++) cache.region(big, pd);
            double hitNs = (System.nanoTime() - t0) / (double) hits;
            MemorySegment staging = arena.allocate(64L << 20, 64);
            double best = Double.MAX_VALUE;
            for (int i = 0; i < 10; i++) {
                t0 = System.nanoTime();
                MemorySegment.copy(big, 0, staging, 0, big.byteSize());
                best = Math.min(best, (System.nanoTime() - t0) / 1e6);
            }
            System.out.printf(Locale.ROOT, "%s: register+deregister %.2f us; cache hit %.0f ns; staging copy of 64 MiB %.2f ms (%.1f GB/s)%n",
                    name, missUs, hitNs, best, (64 << 20) / best / 1e6);
        }
    }
}
