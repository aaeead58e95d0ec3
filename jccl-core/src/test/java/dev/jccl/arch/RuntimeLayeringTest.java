package dev.jccl.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.comm.CommFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/**
 * The package rules of the collective runtime: the public API reaches the runtime through one
 * factory; the runtime ({@code comm}) sees the executor, schedules, bootstrap and the verbs SPI; the
 * executor ({@code exec}) sees schedules, kernels and the verbs SPI, but neither bootstrap nor the
 * runtime; neither names a provider or the providers' shared code.
 */
@Tag("unit")
class RuntimeLayeringTest {
    private static JavaClasses core;
    private static ExistingPackages pkg;

    @BeforeAll
    static void importClasses() {
        core = CoreClasses.get();
        pkg = new ExistingPackages(core);
    }

    @Test
    void theExecutorSeesSchedulesKernelsAndTheSpiOnly() {
        classes().that().resideInAPackage(pkg.one("dev.jccl.exec.."))
                .should().onlyDependOnClassesThat(resideInAnyPackage(pkg.of("dev.jccl.exec..", "dev.jccl.algo..", "dev.jccl.reduce..",
                        "dev.jccl.verbs", "dev.jccl.trace..", "dev.jccl.config..", "dev.jccl.util..", "java.."))
                        .or(belongToAnyOf(DataType.class, ReduceOp.class)))
                .check(core);
    }

    @Test
    void theRuntimeSeesTheExecutorBootstrapAndTheSpiButNoProviderCode() {
        classes().that().resideInAPackage(pkg.one("dev.jccl.comm.."))
                .should().onlyDependOnClassesThat().resideInAnyPackage(pkg.of("dev.jccl", "dev.jccl.comm..", "dev.jccl.algo..",
                        "dev.jccl.exec..", "dev.jccl.bootstrap..", "dev.jccl.verbs", "dev.jccl.trace..", "dev.jccl.config..",
                        "dev.jccl.util..", "java.."))
                .check(core);
    }

    @Test
    void thePublicApiReachesTheRuntimeThroughOneFactory() {
        classes().that().resideInAPackage(pkg.one("dev.jccl"))
                .should().onlyDependOnClassesThat(resideInAnyPackage(pkg.of("dev.jccl", "dev.jccl.config..", "dev.jccl.util..",
                        "dev.jccl.bootstrap..", "java..")).or(belongToAnyOf(CommFactory.class)))
                .check(core);
        noClasses().that().resideOutsideOfPackages(pkg.of("dev.jccl", "dev.jccl.comm.."))
                .should().dependOnClassesThat().resideInAPackage(pkg.one("dev.jccl.comm.."))
                .check(core);
    }
}
