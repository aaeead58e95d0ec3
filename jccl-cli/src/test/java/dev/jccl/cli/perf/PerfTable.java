package dev.jccl.cli.perf;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The result table {@code jccl perf} prints, read back: checks the perftest column header and turns
 * each row after it into numbers.
 *
 * @param rows one array per row: for bandwidth {size, iterations, peak MB/s, average MB/s, Mpps};
 *             for latency {size, iterations, min, max, typical, avg, stdev, p99, p99.9} in µs
 */
public record PerfTable(boolean latency, List<double[]> rows) {
    static final List<String> BANDWIDTH_COLUMNS = List.of("#bytes", "#iterations", "BW peak[MB/sec]", "BW average[MB/sec]",
            "MsgRate[Mpps]");
    static final List<String> LATENCY_COLUMNS = List.of("#bytes", "#iterations", "t_min[usec]", "t_max[usec]",
            "t_typical[usec]", "t_avg[usec]", "t_stdev[usec]", "99% percentile[usec]", "99.9% percentile[usec]");

    /** Finds the header among {@code lines} (unprefixed), checks its columns in order, reads the rows below it. */
    public static PerfTable parse(List<String> lines, boolean latency) {
        List<String> columns = latency ? LATENCY_COLUMNS : BANDWIDTH_COLUMNS;
        int header = -1;
        for (int i = 0; i < lines.size() && header < 0; i++) if (lines.get(i).startsWith(" #bytes")) header = i;
        assertTrue(header >= 0, "no column header in " + lines);
        int at = 0;
        for (String c : columns) {
            at = lines.get(header).indexOf(c, at);
            assertTrue(at >= 0, "column '" + c + "' missing or out of order in: " + lines.get(header));
        }
        List<double[]> rows = new ArrayList<>();
        for (int i = header + 1; i < lines.size() && lines.get(i).matches(" \\d.*"); i++) {
            double[] row = Arrays.stream(lines.get(i).trim().split("\\s+")).mapToDouble(Double::parseDouble).toArray();
            assertEquals(columns.size(), row.length, "cells in row: " + lines.get(i));
            rows.add(row);
        }
        return new PerfTable(latency, rows);
    }

    public List<Long> sizes() {
        return rows.stream().map(r -> (long) r[0]).toList();
    }

    /** Every latency positive and ordered as statistics must be: min <= typical, avg, p99 <= p99.9 <= max. */
    public void checkLatencyRows(int iterations) {
        for (double[] r : rows) {
            String row = Arrays.toString(r);
            assertEquals(iterations, (int) r[1], row);
            double min = r[2], max = r[3], typical = r[4], avg = r[5], stdev = r[6], p99 = r[7], p999 = r[8];
            assertTrue(min > 0 && min <= typical && typical <= max, row);
            assertTrue(min <= avg && avg <= max && stdev >= 0, row);
            assertTrue(min <= p99 && p99 <= p999 && p999 <= max, row);
        }
    }

    /**
     * Bandwidths positive (zero, exactly, for 0-byte messages, which move no bytes), a positive
     * message rate for every size, and average MB/s equal to Mpps times the size up to rounding.
     */
    public void checkBandwidthRows(List<Integer> iterations) {
        assertEquals(iterations.size(), rows.size());
        for (int i = 0; i < rows.size(); i++) {
            double[] r = rows.get(i);
            String row = Arrays.toString(r);
            assertEquals(iterations.get(i), (int) r[1], row);
            if (r[0] == 0) {
                assertTrue(r[2] == 0 && r[3] == 0, "0-byte messages move 0 MB/s: " + row);
            } else {
                assertTrue(r[2] > 0 && r[3] > 0, row);
            }
            assertTrue(r[4] > 0, "message rate: " + row);
            double roundingMBps = 0.005 + 5e-7 * r[0] + 1e-6 * r[3];
            assertEquals(r[4] * r[0], r[3], roundingMBps, "average MB/s = Mpps x bytes: " + row);
        }
    }
}
