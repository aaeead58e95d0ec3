package dev.jccl.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

/** Keeps the package rules of docs/ARCHITECTURE.md true over the compiled classes. */
@Tag("unit")
class LayeringTest {
    private static JavaClasses core;

    @BeforeAll
    static void importClasses() {
        core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.jccl");
    }

    @Test
    void utilDependsOnTheJdkOnly() {
        noClasses().that().resideInAPackage("dev.jccl.util..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.jccl.config..", "dev.jccl.trace..",
                        "dev.jccl.verbs..", "dev.jccl.bootstrap..", "dev.jccl.algo..", "dev.jccl.reduce..")
                .allowEmptyShould(true).check(core);
    }

    @Test
    void configAndTraceSitLowInTheStack() {
        classes().that().resideInAPackage("dev.jccl.config..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.jccl.config..", "dev.jccl.util..", "java..")
                .check(core);
        classes().that().resideInAPackage("dev.jccl.trace..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.jccl.trace..", "dev.jccl.config..",
                        "dev.jccl.util..", "java..")
                .check(core);
    }

    @Test
    void theVerbsSpiAndSharedCodeNeverNameAProvider() {
        noClasses().that().resideInAnyPackage("dev.jccl.verbs", "dev.jccl.verbs.base")
                .should().dependOnClassesThat().resideInAnyPackage("dev.jccl.verbs.shm..", "dev.jccl.verbs.tcp..")
                .check(core);
    }

    @Test
    void providersNeverImportEachOther() {
        noClasses().that().resideInAPackage("dev.jccl.verbs.shm..")
                .should().dependOnClassesThat().resideInAPackage("dev.jccl.verbs.tcp..")
                .allowEmptyShould(true).check(core);
        noClasses().that().resideInAPackage("dev.jccl.verbs.tcp..")
                .should().dependOnClassesThat().resideInAPackage("dev.jccl.verbs.shm..")
                .allowEmptyShould(true).check(core);
    }

    @Test
    void nothingOutsideAProviderNamesIt() {
        noClasses().that().resideOutsideOfPackages("dev.jccl.verbs.shm..")
                .should().dependOnClassesThat().resideInAPackage("dev.jccl.verbs.shm..")
                .allowEmptyShould(true).check(core);
        noClasses().that().resideOutsideOfPackages("dev.jccl.verbs.tcp..")
                .should().dependOnClassesThat().resideInAPackage("dev.jccl.verbs.tcp..")
                .allowEmptyShould(true).check(core);
    }

    @Test
    void verbsDependOnlyOnLowerLayers() {
        classes().that().resideInAPackage("dev.jccl.verbs..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.jccl.verbs..", "dev.jccl.util..",
                        "dev.jccl.config..", "dev.jccl.trace..", "java..", "javax..", "jdk..")
                .check(core);
    }

    @Test
    void algorithmsAndKernelsArePure() {
        noClasses().that().resideInAnyPackage("dev.jccl.algo..", "dev.jccl.reduce..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.jccl.verbs..", "dev.jccl.bootstrap..",
                        "dev.jccl.trace..", "java.net..", "java.nio.channels..", "java.lang.Thread",
                        "java.util.concurrent..")
                .allowEmptyShould(true).check(core);
    }

    @Test
    void bootstrapNeverReachesIntoProvidersOrCollectives() {
        noClasses().that().resideInAPackage("dev.jccl.bootstrap..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.jccl.verbs.base..", "dev.jccl.verbs.shm..",
                        "dev.jccl.verbs.tcp..", "dev.jccl.algo..", "dev.jccl.reduce..")
                .allowEmptyShould(true).check(core);
    }

    @Test
    void dataParallelismIsAClientOfThePublicApi() {
        classes().that().resideInAPackage("dev.jccl.ddp..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.jccl", "dev.jccl.ddp..", "dev.jccl.trace..",
                        "dev.jccl.util..", "java..")
                .check(core);
    }
}
