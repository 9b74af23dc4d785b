package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which JVMs {@link StarterClassPath} completes, and with which jars; the real starter is {@code DebianMpjrunIT}. */
class StarterClassPathTest
{
    @Test
    void shouldTakeTheStarterByItsJarOrItsClassOnly()
    {
        assertTrue(StarterClassPath.isStarter("/usr/share/mpj/lib/starter.jar -np 2 -dev shm App"));
        assertTrue(StarterClassPath.isStarter("/usr/share/mpj/lib/starter-0.44.jar -np 2 App"));
        assertTrue(StarterClassPath.isStarter("runtime.starter.MPJRun -np 2 App"));
        assertFalse(StarterClassPath.isStarter("runtime.daemon.MPJDaemon 40055"));
        assertFalse(StarterClassPath.isStarter("/opt/app/restarter.jar"));
        assertFalse(StarterClassPath.isStarter(null));
    }

    @Test
    void shouldAppendOnlyWhatTheClassPathLacks(@TempDir final Path javaDir) throws IOException
    {
        for (final StarterClassPath.Library library : StarterClassPath.LIBRARIES)
        {
            Files.createFile(javaDir.resolve(library.jar()));
        }
        final ClassLoader nothing = new ClassLoader(null)
        {
        };

        assertEquals(StarterClassPath.LIBRARIES.stream().map(library -> javaDir.resolve(library.jar())).toList(),
            StarterClassPath.missing(nothing, javaDir));
        // A library this JVM's class path has already is not appended again.
        final ClassLoader own = StarterClassPathTest.class.getClassLoader();
        final List<Path> forThisJvm = StarterClassPath.missing(own, javaDir);
        for (final StarterClassPath.Library library : StarterClassPath.LIBRARIES)
        {
            assertEquals(own.getResource(library.probe()) == null, forThisJvm.contains(javaDir.resolve(library.jar())),
                library::jar);
        }
    }
}
