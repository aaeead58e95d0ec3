package dev.jccl.bootstrap;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The compressed lists SLURM puts in the environment: host lists like {@code node[01-04,07],gpu3}
 * and task counts like {@code 4(x2),3} (four tasks on each of two nodes, then three).
 */
final class SlurmLists {
    private static final Pattern TASK_COUNT = Pattern.compile("(\\d+)(?:\\(x(\\d+)\\))?");
    private static final Pattern RANGE_START = Pattern.compile("(\\d+)(?:-\\d+)?");

    private SlurmLists() {}

    /** The first host of a SLURM host list: {@code node[01-04],x} gives {@code node01}. */
    static String firstHost(String variable, String list) {
        String s = list.trim();
        int end = s.length();
        int depth = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[') depth++;
            else if (c == ']') depth--;
            else if (c == ',' && depth == 0) {
                end = i;
                break;
            }
            if (depth < 0 || depth > 1) throw bad(variable, list, "brackets do not pair up");
        }
        String first = s.substring(0, end);
        StringBuilder host = new StringBuilder();
        for (int i = 0; i < first.length(); i++) {
            char c = first.charAt(i);
            if (c != '[') {
                host.append(c);
                continue;
            }
            int close = first.indexOf(']', i);
            if (close < 0) throw bad(variable, list, "unclosed '['");
            String firstItem = first.substring(i + 1, close).split(",", -1)[0];
            Matcher m = RANGE_START.matcher(firstItem);
            if (!m.matches()) throw bad(variable, list, "'" + firstItem + "' is not a number or range");
            host.append(m.group(1)); // the text, so zero padding (node01) survives
            i = close;
        }
        if (host.isEmpty() || host.indexOf("]") >= 0) throw bad(variable, list, "no host name");
        return host.toString();
    }

    /** Tasks on node {@code nodeIndex} according to a SLURM task-count list. */
    static int tasksOnNode(String variable, String spec, int nodeIndex, String indexVariable) {
        int remaining = nodeIndex;
        int nodesListed = 0;
        for (String part : spec.trim().split(",")) {
            Matcher m = TASK_COUNT.matcher(part.trim());
            if (!m.matches()) throw bad(variable, spec, "'" + part + "' is not N or N(xM)");
            int count = parsePositive(variable, spec, m.group(1));
            int repeat = m.group(2) == null ? 1 : parsePositive(variable, spec, m.group(2));
            if (remaining < repeat) return count;
            remaining -= repeat;
            nodesListed += repeat;
        }
        throw new LaunchEnvironmentException(variable + "='" + spec + "' lists " + nodesListed + " node(s); "
                + indexVariable + "=" + nodeIndex + " is not among them");
    }

    private static int parsePositive(String variable, String spec, String digits) {
        try {
            int v = Integer.parseInt(digits);
            if (v > 0) return v;
        } catch (NumberFormatException e) {
            // too large: reported below
        }
        throw bad(variable, spec, "count '" + digits + "' is not a positive integer");
    }

    private static LaunchEnvironmentException bad(String variable, String value, String why) {
        return new LaunchEnvironmentException(variable + "='" + value + "' is malformed: " + why);
    }
}
