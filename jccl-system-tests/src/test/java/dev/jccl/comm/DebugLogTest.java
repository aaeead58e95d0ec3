package dev.jccl.comm;

import dev.jccl.ReduceOp;
import dev.jccl.config.Config;
import dev.jccl.testkit.CommRanks;
import dev.jccl.trace.Log;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * With JCCL_DEBUG=INFO the log says what really happens: which provider each link uses, which
 * algorithm the tuner chose and why, and that arrays cost two staging copies.
 */
@Tag("multiprocess")
class DebugLogTest {
    @AfterEach
    void quietAgain() {
        Log.configure(Config.of(Map.of()));
    }

    @Test
    @Timeout(60)
    void infoLogNamesLinksPlansAndStaging() throws Exception {
        Path file = Files.createTempFile("jccl-log-", ".txt");
        try {
            CommRanks.run(2, CommRanks.knobs("JCCL_DEBUG", "INFO", "JCCL_DEBUG_FILE", file.toString(), "JCCL_TRANSPORT", "shm"), comm -> {
                comm.allReduce(new float[1000], ReduceOp.SUM).await();
                return null;
            });
            String log = Files.readString(file);
            for (String line : new String[] {
                    "staging float[1000] through registered memory: +2 copies",
                    "rank 0 -> rank 1 channel 0 via shm: ",
                    "rank 1 -> rank 0 channel 0 via shm: ",
                    "allReduce (1000 x float, in place): allReduce 3.9 KiB on 2 ranks (1 host x 2 ranks): ",
                    "FIFO 8 x 512 KiB per link"}) {
                assertTrue(log.contains(line), "'" + line + "' missing from the log:\n" + log);
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
