package dev.jccl.faults;

import dev.jccl.testkit.jvm.JavaCommand;
import dev.jccl.testkit.jvm.JvmJob;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The debug provider in rank JVMs: selected by JCCL_TRANSPORT=debug, its spec read from JCCL_FAULTS
 * and the rank from RANK, so a fault named for rank 1 strikes rank 1's JVM only.
 */
@Tag("multiprocess")
class ChildJvmFaultsTest {
    @Test
    @Timeout(120)
    void theSpecInTheEnvironmentReachesTheRankItNames() throws Exception {
        try (JvmJob job = JvmJob.builder(2).command(JavaCommand.main(FaultChildRank.class).fastStart())
                .env(Map.of("JCCL_TRANSPORT", "debug", "JCCL_FAULTS", "inner=tcp;seed=3;delay=rank1:1ms@p0.5")).start()) {
            job.awaitSuccess(TimeUnit.SECONDS.toNanos(90));
            String out0 = job.rank(0).output();
            String out1 = job.rank(1).output();
            assertTrue(out0.contains("OK rank 0 fired {}"), out0);
            assertTrue(out1.contains("OK rank 1 fired {DELAY="), out1);
        }
    }
}
