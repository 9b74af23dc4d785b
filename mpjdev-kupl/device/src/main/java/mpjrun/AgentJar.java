package mpjrun;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.jar.JarFile;

/**
 * Finds the kupl agent jar that {@link ShmJob} gives its ranks as {@code -javaagent}, so that MPJ Express's
 * collectives run through shared memory there: the system property {@value #PROPERTY} (set by
 * {@code bin/mpjrun} and the build's tests), else this class's own jar when it is the agent jar (the job was
 * started through the agent, from {@code mpjrun.sh -dev shm}). Without one, the ranks run MPJ Express's
 * collectives over the device's messages.
 */
final class AgentJar
{
    /** System property: path of the kupl agent jar. */
    static final String PROPERTY = "kupl.agent.jar";
    private static final String AGENT_CLASS = "mpjrun.agent.MpjAgent";

    private AgentJar()
    {
    }

    /** The agent jar, or null; says on {@code err} why a jar named by the property is not used. */
    static Path locate(final PrintStream err)
    {
        final String named = System.getProperty(PROPERTY);
        if (named != null && !named.isBlank())
        {
            final Path path = Path.of(named).toAbsolutePath();
            if (isAgent(path))
            {
                return path;
            }
            err.println("mpjrun: " + PROPERTY + "=" + named + " is not the kupl agent jar (no file, or no " +
                "Premain-Class " + AGENT_CLASS + "), so collectives use MPJ Express's messages: build it with " +
                "mvn -pl mpjdev-kupl/agent -am package, or give its path");
            return null;
        }
        final Path own = ownJar();
        return own != null && isAgent(own) ? own : null;
    }

    private static Path ownJar()
    {
        final CodeSource source = AgentJar.class.getProtectionDomain().getCodeSource();
        try
        {
            return source == null ? null : Path.of(source.getLocation().toURI());
        }
        catch (final URISyntaxException | IllegalArgumentException e)
        {
            return null;
        }
    }

    private static boolean isAgent(final Path path)
    {
        if (!Files.isRegularFile(path))
        {
            return false;
        }
        try (JarFile jar = new JarFile(path.toFile()))
        {
            return jar.getManifest() != null &&
                AGENT_CLASS.equals(jar.getManifest().getMainAttributes().getValue("Premain-Class"));
        }
        catch (final IOException e)
        {
            return false;
        }
    }
}
