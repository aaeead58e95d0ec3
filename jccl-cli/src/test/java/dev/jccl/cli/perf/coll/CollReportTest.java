package dev.jccl.cli.perf.coll;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The --json line is read by scripts: its field names, order and number formats stay as they are. */
@Tag("unit")
class CollReportTest {
    @Test
    void jsonCarriesEverySizeWithFixedDecimalsAndNullForUncheckedResults() {
        CollOptions o = new CollOptions(CollTest.ALLREDUCE, 8, 16, 2, 20, 5, true, ReduceOp.SUM, DataType.FLOAT32, 0, true, 0, false, 0);
        List<CollResult> rs = List.of(
                new CollResult(8, 2, "float", "sum", 0, new CollResult.Figures(12.25, 0.5, 0.75, 0), new CollResult.Figures(10, 0.25, 0.5, -1)),
                new CollResult(16, 4, "float", "sum", 0, new CollResult.Figures(1.5, 1, 1.25, 3), new CollResult.Figures(2, 2, 2.5, 0)));
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CollReport.json(new PrintStream(bytes, true, StandardCharsets.UTF_8), o, 3, rs);
        assertEquals("{\"test\":\"allreduce\",\"ranks\":3,\"type\":\"float\",\"op\":\"sum\",\"results\":["
                + "{\"size\":8,\"count\":2,\"root\":0,\"out_of_place\":{\"time_us\":12.250,\"algbw\":0.5000,\"busbw\":0.7500,\"wrong\":0},"
                + "\"in_place\":{\"time_us\":10.000,\"algbw\":0.2500,\"busbw\":0.5000,\"wrong\":null}},"
                + "{\"size\":16,\"count\":4,\"root\":0,\"out_of_place\":{\"time_us\":1.500,\"algbw\":1.0000,\"busbw\":1.2500,\"wrong\":3},"
                + "\"in_place\":{\"time_us\":2.000,\"algbw\":2.0000,\"busbw\":2.5000,\"wrong\":0}}],\"avg_busbw\":1.2500}" + System.lineSeparator(),
                bytes.toString(StandardCharsets.UTF_8));
    }
}
