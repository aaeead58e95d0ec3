package dev.jccl.cli.tool;

/**
 * One line of a tool's verdict: the check, its outcome, the evidence (what was measured or read)
 * and the fix (empty when there is nothing to do).
 */
public record Finding(String check, Verdict verdict, String evidence, String fix) {
    public static Finding ok(String check, String evidence) {
        return new Finding(check, Verdict.OK, evidence, "");
    }

    public static Finding warn(String check, String evidence, String fix) {
        return new Finding(check, Verdict.WARN, evidence, fix);
    }

    public static Finding fail(String check, String evidence, String fix) {
        return new Finding(check, Verdict.FAIL, evidence, fix);
    }
}
