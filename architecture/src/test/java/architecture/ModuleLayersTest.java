package architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import org.junit.jupiter.api.Test;

/**
 * The arrows between the library's modules, engine &lt;- device &lt;- launcher &lt;- agent: Maven's dependencies
 * already forbid most wrong ones at compile time, and these rules also catch a class put in another module's
 * package, which Maven cannot see.
 */
class ModuleLayersTest
{
    @Test
    void shouldKeepTheEngineFreeOfMpjExpressTheApiByteBuddyAndTheLauncher()
    {
        noClasses().that().resideInAPackage("kupl..")
            .should().dependOnClassesThat().resideInAnyPackage("mpi..", "mpjdev..", "mpjbuf..", "xdev..", "runtime..",
                "net.bytebuddy..", "mpjrun..")
            .because("the engine (mpjdev-kupl/engine) is KUPL's engine and runs on the JDK alone: what it needs of "
                + "MPJ Express, the api or the launcher belongs in the device or the launcher, which depend on it")
            .check(ProjectClasses.all());
    }

    @Test
    void shouldKeepTheDeviceFreeOfTheLauncherAndTheAgent()
    {
        noClasses().that().resideInAnyPackage("xdev.shmdev..", "xdev.spi..", "mpi.rma.kupl..")
            .should().dependOnClassesThat().resideInAPackage("mpjrun..")
            .because("the device (mpjdev-kupl/device) is below the launcher and the agent: a device class that needs "
                + "the launcher's code should take it as a parameter or move to the launcher")
            .check(ProjectClasses.all());
    }

    @Test
    void shouldKeepTheLauncherFreeOfTheAgent()
    {
        noClasses().that().resideInAPackage("mpjrun..").and().resideOutsideOfPackage("mpjrun.agent..")
            .should().dependOnClassesThat().resideInAPackage("mpjrun.agent..")
            .because("the agent depends on the launcher, not the reverse: the launcher finds the agent's jar and "
                + "weaver through AgentJarContract (a manifest attribute), never by naming its classes")
            .check(ProjectClasses.all());
    }
}
