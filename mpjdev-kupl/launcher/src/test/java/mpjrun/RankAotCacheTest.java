package mpjrun;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import kupl.KuplException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The launcher's AOT cache for rank JVMs without starting a JVM: its key, where it lives, and how a
 * trained cache is published ({@link RankAotCache}), and when {@link RankAotTraining} gives none.
 * {@code RankAotCacheIT} (agent module) runs real jobs with it.
 */
class RankAotCacheTest
{
    private static final String JDK = "/usr/lib/jvm/some-jdk";
    private static final String VM = "25+36-LTS";

    @TempDir
    Path dir;

    @Test
    void shouldGiveTheSameKeyForTheSameJdkAndJars() throws IOException
    {
        final List<String> jars = List.of(jar("a.jar", "aaa"), jar("b.jar", "bbb"));

        assertEquals(RankAotCache.key(jars, JDK, VM), RankAotCache.key(jars, JDK, VM));
        assertTrue(RankAotCache.key(jars, JDK, VM).orElseThrow().matches("[0-9a-f]{32}"));
    }

    @Test
    void shouldChangeTheKeyWhenAJarIsRebuilt() throws IOException
    {
        final String a = jar("a.jar", "aaa");
        final Optional<String> before = RankAotCache.key(List.of(a), JDK, VM);

        // The JVM checks each jar's modification time and size: a touched jar needs a new cache.
        Files.setLastModifiedTime(Path.of(a), FileTime.fromMillis(Files.getLastModifiedTime(Path.of(a)).toMillis()
            + 1000));
        final Optional<String> touched = RankAotCache.key(List.of(a), JDK, VM);
        Files.writeString(Path.of(a), "aaaa");
        final Optional<String> grown = RankAotCache.key(List.of(a), JDK, VM);

        assertNotEquals(before, touched);
        assertNotEquals(touched, grown);
    }

    @Test
    void shouldChangeTheKeyWithTheJdkTheJarsOrTheirOrder() throws IOException
    {
        final String a = jar("a.jar", "aaa");
        final String b = jar("b.jar", "bbb");
        final Optional<String> key = RankAotCache.key(List.of(a, b), JDK, VM);

        assertNotEquals(key, RankAotCache.key(List.of(a, b), "/usr/lib/jvm/other-jdk", VM));
        assertNotEquals(key, RankAotCache.key(List.of(a, b), JDK, "25.0.1+8-LTS"));
        assertNotEquals(key, RankAotCache.key(List.of(b, a), JDK, VM));
        assertNotEquals(key, RankAotCache.key(List.of(a), JDK, VM));
    }

    @Test
    void shouldHaveNoKeyForAClassDirectoryOrAMissingJar() throws IOException
    {
        final String a = jar("a.jar", "aaa");
        final Path classes = Files.createDirectory(dir.resolve("classes"));

        // The JDK refuses class directories in a cache's class path.
        assertEquals(Optional.empty(), RankAotCache.key(List.of(a, classes.toString()), JDK, VM));
        assertEquals(Optional.empty(), RankAotCache.key(List.of(a, dir.resolve("gone.jar").toString()), JDK, VM));
    }

    @Test
    void shouldLiveUnderXdgCacheHomeOrTheHomesDotCache()
    {
        assertEquals(Path.of("/x/cache/mpj-kupl"), RankAotCache.directory(Map.of("XDG_CACHE_HOME", "/x/cache"),
            "/home/u"));
        assertEquals(Path.of("/home/u/.cache/mpj-kupl"), RankAotCache.directory(Map.of(), "/home/u"));
        // The XDG specification says to ignore a relative path.
        assertEquals(Path.of("/home/u/.cache/mpj-kupl"), RankAotCache.directory(Map.of("XDG_CACHE_HOME", "rel"),
            "/home/u"));
    }

    @Test
    void shouldMakeItsDirectoryForItsOwnerOnly() throws IOException
    {
        final RankAotCache cache = new RankAotCache(dir.resolve("a/mpj-kupl"), "k");

        assertEquals("", cache.prepareDirectory());
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache.directory())));
    }

    @Test
    void shouldRefuseADirectoryOthersCanWrite() throws IOException
    {
        final Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertTrue(new RankAotCache(shared, "k").prepareDirectory().contains("can be written by other users"));
    }

    @Test
    void shouldPublishByRenamingAndReplaceAnOlderCache() throws IOException
    {
        final RankAotCache cache = new RankAotCache(dir, "k");
        Files.writeString(cache.file(), "old");
        final Path trained = Files.writeString(cache.newTrainingDirectory().resolve("rank0.aot"), "new");

        cache.publish(trained);

        assertTrue(cache.isTrained());
        assertEquals("new", Files.readString(cache.file()));
        assertFalse(Files.exists(trained));
    }

    @Test
    void shouldKeepOnlyTheNewestCaches() throws IOException
    {
        for (int i = 0; i < RankAotCache.KEPT + 2; i++)
        {
            final RankAotCache old = new RankAotCache(dir, "old" + i);
            Files.writeString(old.file(), "x");
            Files.setLastModifiedTime(old.file(), FileTime.fromMillis(1_000_000L * (i + 1)));
        }
        final RankAotCache cache = new RankAotCache(dir, "k");

        cache.publish(Files.writeString(dir.resolve("trained"), "new"));

        try (Stream<Path> files = Files.list(dir))
        {
            assertEquals(List.of("rank-jvm-k.aot", "rank-jvm-old3.aot", "rank-jvm-old4.aot"),
                files.map(f -> f.getFileName().toString()).filter(name -> name.endsWith(".aot")).sorted().toList());
        }
    }

    @Test
    void shouldRememberAFailedTraining() throws IOException
    {
        final RankAotCache cache = new RankAotCache(dir, "k");
        assertFalse(cache.failedBefore());

        cache.markFailed();

        assertTrue(cache.failedBefore());
        assertFalse(new RankAotCache(dir, "other").failedBefore());
    }

    @Test
    void shouldGiveRanksTheCacheQuietlyAfterTheLogSwitches()
    {
        final RankAotCache cache = new RankAotCache(dir, "k");

        assertEquals(List.of("-Xlog:aot*=off", "-Xlog:cds*=off", "-XX:AOTCache=" + dir.resolve("rank-jvm-k.aot")),
            cache.rankOptions());
    }

    @ParameterizedTest
    @ValueSource(strings = {"-XX:AOTCache=/tmp/my.aot", "-XX:AOTCacheOutput=/tmp/my.aot", "-XX:AOTMode=off",
        "-Xshare:off", "-XX:SharedArchiveFile=/tmp/app.jsa", "-XX:ArchiveClassesAtExit=/tmp/app.jsa",
        "-XX:+AutoCreateSharedArchive"})
    void shouldLeaveClassSharingToAUserWhoChoosesIt(final String option)
    {
        assertTrue(RankAotCache.chosenByUser(List.of("-Xmx1g", option)));
        assertFalse(RankAotCache.chosenByUser(List.of("-Xmx1g", "-Xlog:aot")));
    }

    @Test
    void shouldBeOnUnlessSwitchedOffAndRejectOtherValues()
    {
        assertTrue(RankAotCache.enabled(Map.of()));
        assertTrue(RankAotCache.enabled(Map.of(RankAotCache.SWITCH, " on ")));
        assertFalse(RankAotCache.enabled(Map.of(RankAotCache.SWITCH, "off")));
        final KuplException bad = assertThrows(KuplException.class,
            () -> RankAotCache.enabled(Map.of(RankAotCache.SWITCH, "no")));
        assertEquals("KUPL_RANK_AOT_CACHE=no is not allowed: use one of [on, off] (default on)", bad.getMessage());
    }

    @Test
    void shouldGiveNoCacheAndTrainNothingWhenSwitchedOffOrForClassDirectories() throws IOException
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
        final String classes = Files.createDirectory(dir.resolve("classes")).toString();
        final Map<String, String> environment = Map.of("XDG_CACHE_HOME", dir.resolve("xdg").toString());

        assertEquals(List.of(), RankAotTraining.rankOptions(List.of(jar("a.jar", "a")), List.of(),
            Map.of(RankAotCache.SWITCH, "off", "XDG_CACHE_HOME", dir.resolve("xdg").toString()), errStream));
        assertEquals(List.of(), RankAotTraining.rankOptions(List.of(jar("a.jar", "a"), classes), List.of(),
            environment, errStream));
        assertEquals(List.of(), RankAotTraining.rankOptions(List.of(jar("a.jar", "a")), List.of("-Xshare:off"),
            environment, errStream));

        assertFalse(Files.exists(dir.resolve("xdg")), "made a cache directory");
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void shouldUseATrainedCacheWithoutTrainingAgain() throws IOException
    {
        final List<String> jars = List.of(jar("a.jar", "a"));
        final Map<String, String> environment = Map.of("XDG_CACHE_HOME", dir.resolve("xdg").toString());
        final RankAotCache cache = new RankAotCache(RankAotCache.directory(environment, "/nowhere"),
            RankAotCache.key(jars, System.getProperty("java.home"), System.getProperty("java.vm.version"))
                .orElseThrow());
        Files.createDirectories(cache.directory());
        Files.writeString(cache.file(), "trained");

        assertEquals(cache.rankOptions(), RankAotTraining.rankOptions(jars, List.of(), environment, System.err));
    }

    @Test
    void shouldNotWaitForAnotherLauncherThatTrains() throws IOException
    {
        final List<String> jars = List.of(jar("a.jar", "a"));
        final Map<String, String> environment = Map.of("XDG_CACHE_HOME", dir.resolve("xdg").toString());
        final RankAotCache cache = new RankAotCache(RankAotCache.directory(environment, "/nowhere"),
            RankAotCache.key(jars, System.getProperty("java.home"), System.getProperty("java.vm.version"))
                .orElseThrow());
        assertEquals("", cache.prepareDirectory());
        final ByteArrayOutputStream err = new ByteArrayOutputStream();

        try (FileChannel channel = FileChannel.open(cache.trainingLock(), StandardOpenOption.CREATE,
            StandardOpenOption.WRITE); FileLock held = channel.lock())
        {
            assertEquals(List.of(), RankAotTraining.rankOptions(jars, List.of(), environment,
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        }

        assertFalse(cache.isTrained() || cache.failedBefore());
        assertEquals("", err.toString(StandardCharsets.UTF_8));
    }

    private String jar(final String name, final String content) throws IOException
    {
        return Files.writeString(dir.resolve(name), content).toString();
    }
}
