package conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** docs/conformance-checklist.md is what {@link Checklist} makes of the suite, so the two cannot drift apart. */
class ChecklistTest
{
    @Test
    void shouldMatchTheChecklistGeneratedFromTheCases() throws IOException
    {
        final Path root = Citations.root();
        final Path committed = root.resolve(Checklist.PATH);
        final String expected = Checklist.markdown(Catalog.all());
        final String actual = Files.isRegularFile(committed) ? Files.readString(committed, StandardCharsets.UTF_8) : "";
        if (!expected.equals(actual))
        {
            // Leave the fresh one beside the build, so that updating the committed file is one copy.
            final Path fresh = Path.of(System.getProperty("user.dir"), "target", "conformance-checklist.md").toAbsolutePath();
            Files.createDirectories(fresh.getParent());
            Files.writeString(fresh, expected, StandardCharsets.UTF_8);
            fail(Checklist.PATH + " is not what the cases make of it (" + firstDifference(expected, actual) + "). " +
                "From the repository root, run 'cp " + root.relativize(fresh) + " " + Checklist.PATH + "' and commit it");
        }
    }

    @Test
    void shouldGiveEveryBehaviourACaseAndADistinctAnchor()
    {
        final Set<Behaviour> checked = EnumSet.noneOf(Behaviour.class);
        Catalog.all().forEach(c -> checked.add(c.behaviour()));
        assertEquals(EnumSet.allOf(Behaviour.class), checked, "behaviours that no case checks are not in the checklist");

        final Set<String> anchors = new HashSet<>();
        for (final CaseGroup group : CaseGroup.values())
        {
            assertTrue(anchors.add(Checklist.slug(group.title())), "two headings share the anchor of " + group.title());
        }
        for (final Behaviour behaviour : Behaviour.values())
        {
            assertTrue(anchors.add(behaviour.anchor()), "two headings share the anchor of " + behaviour.title());
        }
    }

    private static String firstDifference(final String expected, final String actual)
    {
        final List<String> want = expected.lines().toList();
        final List<String> have = actual.lines().toList();
        for (int i = 0; i < Math.max(want.size(), have.size()); i++)
        {
            final String w = i < want.size() ? want.get(i) : "(end of file)";
            final String h = i < have.size() ? have.get(i) : "(end of file)";
            if (!w.equals(h))
            {
                return "line " + (i + 1) + " should be '" + w + "' but is '" + h + "'";
            }
        }
        return "line endings differ";
    }

    @Test
    void shouldSlugHeadingsAsGitHubDoes()
    {
        assertEquals("sharedquery-proc_null-and-zero-sizes", Checklist.slug("sharedQuery, PROC_NULL and zero sizes"));
        assertEquals("lock-lockall-flush-sync-with-loadstore", Checklist.slug("Lock, lockAll, flush, sync with load/store"));
        assertEquals("the-shm-device-xdevshmdev", Checklist.slug("The `shm` device (`xdev.shmdev`)"));
        assertEquals(List.of("a-b", "c"), List.of(Checklist.slug(" A b "), Checklist.slug("C!")));
    }
}
