package dev.jccl.arch;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** The core's main classes, imported once per test JVM: every rule test reads the same set, and an import costs seconds. */
final class CoreClasses {
    private static JavaClasses imported;

    private CoreClasses() {}

    static synchronized JavaClasses get() {
        if (imported == null) {
            imported = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.jccl");
        }
        return imported;
    }
}
