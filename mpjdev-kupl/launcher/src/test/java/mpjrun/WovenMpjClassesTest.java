package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

import kupl.KuplException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When the launcher gives its ranks MPJ Express's classes woven ahead of time and when the agent instead
 * ({@link WovenMpjClasses}), and how a weaving that fails falls back, with a jar that names the agent in its
 * manifest but holds no weaver. {@code WovenMpjClassesIT} (agent module) weaves with the real agent in real jobs.
 */
class WovenMpjClassesTest
{
    @TempDir
    Path dir;
    private Path agent;
    private Path mpjJar;
    private Map<String, String> environment;
    private final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);

    @BeforeEach
    void makeJars() throws IOException
    {
        agent = jar("kupl-agent-test.jar", Map.of(AgentJarContract.MARKER_ATTRIBUTE, "test"));
        mpjJar = jar("mpj.jar", Map.of());
        environment = Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString());
    }

    @Test
    void shouldLeaveTheRanksTheAgentWhenSwitchedOff()
    {
        final Map<String, String> off = Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString(),
            "KUPL_RANK_WOVEN_CLASSES", "off");

        assertEquals(Optional.empty(), WovenMpjClasses.prepare(agent, mpjJar, List.of(), off, err));
        assertFalse(Files.exists(dir.resolve("cache")), "nothing is written when switched off");
    }

    @Test
    void shouldRefuseAnUnknownSwitchValueNamingTheVariable()
    {
        final KuplException bad = assertThrows(KuplException.class, () -> WovenMpjClasses.prepare(agent, mpjJar,
            List.of(), Map.of("KUPL_RANK_WOVEN_CLASSES", "yes"), err));

        assertEquals("KUPL_RANK_WOVEN_CLASSES=yes is not allowed: use one of [on, off] (default on)", bad.getMessage());
    }

    @Test
    void shouldLeaveTheRanksTheAgentTheJobsOptionsGiveThem()
    {
        assertEquals(Optional.empty(), WovenMpjClasses.prepare(agent, mpjJar,
            List.of("-Xmx256m", "-javaagent:" + agent + "=verbose"), environment, err));
        assertFalse(Files.exists(dir.resolve("cache")));
    }

    @Test
    void shouldFallBackToTheAgentOnceAWeavingFailedAndNotTryAgain() throws IOException
    {
        assertEquals(Optional.empty(), WovenMpjClasses.prepare(agent, mpjJar, List.of(), environment, err));
        final String first = errBytes.toString(StandardCharsets.UTF_8);
        assertTrue(first.contains("could not weave MPJ Express's classes ahead of time"), first);
        assertTrue(first.contains("so the ranks get the kupl agent"), first);
        assertEquals(1, files(".failed").size(), "a marker, so that later jobs do not try again");
        assertEquals(List.of(), files(".jar"), "no woven jar");
        assertEquals(List.of(), files(".tmp"), "no half-written jar left");

        errBytes.reset();
        assertEquals(Optional.empty(), WovenMpjClasses.prepare(agent, mpjJar, List.of(), environment, err));
        assertEquals("", errBytes.toString(StandardCharsets.UTF_8), "said once, not at every job");
    }

    @Test
    void shouldUseAWovenJarThatIsThereWithoutWeaving() throws IOException
    {
        // What the weaver would have left, under the name the key gives: a later job takes it as it is.
        assertEquals(Optional.empty(), WovenMpjClasses.prepare(agent, mpjJar, List.of(), environment, err));
        final Path marker = files(".failed").getFirst();
        final Path woven = marker.resolveSibling(marker.getFileName().toString().replace(".failed", ".jar"));
        Files.delete(marker);
        Files.writeString(woven, "woven classes");

        assertEquals(Optional.of(woven), WovenMpjClasses.prepare(agent, mpjJar, List.of(), environment, err));
    }

    @Test
    void shouldTakeOnlyTheKuplAgentOutOfJavaToolOptions() throws IOException
    {
        final Path other = jar("profiler.jar", Map.of("Premain-Class", "some.other.Agent"));

        assertEquals("-Xmx1g -javaagent:" + other + " -Dx=y", AgentJar.withoutAgent(
            " -Xmx1g -javaagent:" + agent + " -javaagent:" + other + " -Dx=y -javaagent:" + agent + "=opt "));
        assertEquals("", AgentJar.withoutAgent("-javaagent:" + agent));
        assertTrue(AgentJar.givenIn(List.of("-javaagent:" + agent)));
        assertFalse(AgentJar.givenIn(List.of("-javaagent:" + other, "-javaagent:" + dir.resolve("missing.jar"))));
    }

    private List<Path> files(final String suffix) throws IOException
    {
        try (Stream<Path> listed = Files.list(dir.resolve("cache").resolve(LauncherCache.DIRECTORY_NAME)))
        {
            return listed.filter(file -> file.toString().endsWith(suffix)).toList();
        }
    }

    /** An empty jar with these attributes in its manifest. */
    private Path jar(final String name, final Map<String, String> attributes) throws IOException
    {
        final Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        attributes.forEach(manifest.getMainAttributes()::putValue);
        final Path jar = dir.resolve(name);
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest))
        {
            out.flush();
        }
        return jar;
    }
}
