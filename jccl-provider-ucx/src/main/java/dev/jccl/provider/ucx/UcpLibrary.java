package dev.jccl.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Finds libucp, libucs and the C library once per JVM and links functions by name.
 *
 * <p>Loading never throws: when a library is missing, {@link #unavailabilityCause()} says which
 * and how to install it, and every other provider keeps working. The version check runs here too,
 * because the struct layouts in {@link UcpLayouts} are only right for the API versions it accepts.
 */
final class UcpLibrary {
    /** The oldest libucp whose parameter structs match {@link UcpLayouts}. */
    static final int MIN_MAJOR = 1;
    static final int MIN_MINOR = 13;
    static final String INSTALL_HINT = "apt-get install libucx0";

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup UCP;
    private static final SymbolLookup UCS;
    private static final String CAUSE;
    private static final String VERSION;

    static {
        SymbolLookup ucp = null;
        SymbolLookup ucs = null;
        String cause = null;
        String version = "";
        try {
            keepSignalsWithTheJvm();
            ucs = open("libucs.so.0");
            ucp = open("libucp.so.0");
            int[] v = queryVersion(ucp);
            version = v[0] + "." + v[1] + "." + v[2];
            cause = versionProblem(v[0], v[1]);
        } catch (IllegalArgumentException | UnsatisfiedLinkError e) {
            cause = missingCause(e.getMessage());
        }
        UCP = ucp;
        UCS = ucs;
        CAUSE = cause;
        VERSION = version;
    }

    private UcpLibrary() {}

    /** Empty when libucp is loaded and of a supported version; otherwise what to do about it. */
    static Optional<String> unavailabilityCause() {
        return Optional.ofNullable(CAUSE);
    }

    /** "1.13.1", or empty when the library is missing. */
    static String version() {
        return VERSION;
    }

    /** What devinfo and skipped tests say when libucp cannot be loaded. */
    static String missingCause(String detail) {
        return "libucp is not installed (" + detail + "); install it with `" + INSTALL_HINT + "`";
    }

    /**
     * Why a libucp of this version cannot be used, or null. UCX appends new fields to its
     * parameter structs and selects them by {@code field_mask}, so a later 1.x keeps the offsets
     * this module uses; an older one lacks fields we set (e.g. {@code ucp_request_param_t.memh}),
     * and a 2.x may change anything.
     */
    static String versionProblem(int major, int minor) {
        if (major == MIN_MAJOR && minor >= MIN_MINOR) return null;
        return "libucp " + major + "." + minor + " is not supported: its struct layouts are only known for "
                + MIN_MAJOR + "." + MIN_MINOR + " up to (not including) " + (MIN_MAJOR + 1) + ".0";
    }

    static MethodHandle ucp(String name, FunctionDescriptor fd) {
        return link(UCP, name, fd);
    }

    static MethodHandle ucs(String name, FunctionDescriptor fd) {
        return link(UCS, name, fd);
    }

    // Linking a C function is restricted; each descriptor here matches the C prototype exactly.
    @SuppressWarnings("restricted")
    static MethodHandle libc(String name, FunctionDescriptor fd) {
        return LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow(name), fd);
    }

    static Linker linker() {
        return LINKER;
    }

    @SuppressWarnings("restricted")
    private static MethodHandle link(SymbolLookup lookup, String name, FunctionDescriptor fd) {
        if (lookup == null) throw new IllegalStateException("libucp unavailable: " + CAUSE);
        return LINKER.downcallHandle(lookup.findOrThrow(name), fd);
    }

    // Loading a native library is a restricted operation; this module exists to do exactly that,
    // and everything it calls there is declared with its exact C signature.
    @SuppressWarnings("restricted")
    private static SymbolLookup open(String soname) {
        return SymbolLookup.libraryLookup(soname, Arena.global());
    }

    /**
     * libucs installs SIGSEGV/SIGBUS handlers when it loads (UCX_ERROR_SIGNALS), but the JVM raises
     * SIGSEGV on purpose (implicit null checks, safepoint polls) and must see it first: with UCX's
     * handler in place the first such signal kills the JVM. The variable is read when libucs loads,
     * so it is set in this process's environment before that.
     */
    @SuppressWarnings("restricted")
    private static void keepSignalsWithTheJvm() {
        MethodHandle setenv = LINKER.downcallHandle(LINKER.defaultLookup().findOrThrow("setenv"),
                FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT));
        try (Arena arena = Arena.ofConfined()) {
            int rc = (int) setenv.invokeExact(arena.allocateFrom("UCX_ERROR_SIGNALS"), arena.allocateFrom(""), 1);
            if (rc != 0) throw new UnsatisfiedLinkError("setenv(UCX_ERROR_SIGNALS) failed");
        } catch (UnsatisfiedLinkError e) {
            throw e;
        } catch (Throwable t) {
            throw new UnsatisfiedLinkError("setenv failed: " + t);
        }
    }

    @SuppressWarnings("restricted")
    private static int[] queryVersion(SymbolLookup ucp) {
        MethodHandle getVersion = LINKER.downcallHandle(ucp.findOrThrow("ucp_get_version"),
                FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_INT, 3);
            getVersion.invokeExact(out, out.asSlice(4), out.asSlice(8));
            return new int[] {out.getAtIndex(JAVA_INT, 0), out.getAtIndex(JAVA_INT, 1), out.getAtIndex(JAVA_INT, 2)};
        } catch (Throwable t) {
            throw new UnsatisfiedLinkError("ucp_get_version failed: " + t);
        }
    }
}
