package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.IOException;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarFile;

import mpjrun.AgentJarContract;
import org.junit.jupiter.api.Test;

/**
 * The packaged agent jar keeps the launcher's contract ({@link AgentJarContract}): the launcher knows it by its
 * marker attribute and runs its weaver as its main class, since it names no class of this module.
 */
class AgentJarContractIT
{
    @Test
    void shouldCarryTheMarkerAndTheWeaverAsMainClass() throws IOException
    {
        final Path agent = PackagedAgent.jar();
        try (JarFile jar = new JarFile(agent.toFile()))
        {
            final Attributes attributes = jar.getManifest().getMainAttributes();

            assertNotNull(attributes.getValue(AgentJarContract.MARKER_ATTRIBUTE),
                agent + " lacks the manifest attribute " + AgentJarContract.MARKER_ATTRIBUTE + ": the launcher " +
                "will not take it for the kupl agent (see the agent module's pom.xml)");
            assertEquals(MpjClassWeaver.class.getName(), attributes.getValue(Attributes.Name.MAIN_CLASS),
                "the launcher runs the agent jar's main class as the weaver");
            assertEquals(MpjAgent.class.getName(), attributes.getValue("Premain-Class"));
        }
    }
}
