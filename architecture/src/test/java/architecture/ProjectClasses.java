package architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;

/**
 * The project's main classes, read once for every rule: each module's own packages (MPJ Express's {@code mpi},
 * {@code xdev} and {@code mpjdev} left out), without Byte Buddy as the agent's jar carries it relocated.
 */
final class ProjectClasses
{
    /** Every package a module of the project owns. */
    private static final String[] PACKAGES = {
        "kupl", "xdev.shmdev", "xdev.spi", "mpi.rma", "mpjrun", "conformance", "samples", "bench", "faults",
    };

    /** The agent's copy of Byte Buddy, which is not the project's code. */
    private static final ImportOption NOT_RELOCATED_BYTE_BUDDY =
        (final Location location) -> !location.contains("/mpjrun/agent/shaded/");

    private static final JavaClasses CLASSES = new ClassFileImporter()
        .withImportOption(NOT_RELOCATED_BYTE_BUDDY)
        .importPackages(PACKAGES);

    private ProjectClasses()
    {
    }

    /** The classes, imported on first use (a few seconds) and shared by every test class here. */
    static JavaClasses all()
    {
        return CLASSES;
    }
}
