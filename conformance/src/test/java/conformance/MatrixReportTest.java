package conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import mpjrun.MpjDevice;
import org.junit.jupiter.api.Test;

/** Reading a job's output into results, and the reports made from them. */
class MatrixReportTest
{
    private static final Configuration CONFIGURATION = new Configuration(MpjDevice.MULTICORE, 2, 1, "posix");

    @Test
    void shouldMarkCasesAJobNeverReportedAsNotRun()
    {
        final String output = String.join("\n",
            "MPJ Express (0.44) is started in the multicore configuration",
            "@@META\ta.one\tFENCE\t1\texpect <one>\tsrc 1",
            "@@META\ta.two\tFENCE\t2\texpect two\tsrc 2",
            "@@CASE\ta.one\tFAIL\t12\trank 1: value <7> | rank 0: x",
            "Exception in thread main: boom");
        final ConfigurationRun run = ConfigurationRun.parse(CONFIGURATION, output, false, 5);

        assertEquals(Status.FAIL, run.results().get("a.one").status());
        assertEquals(Status.NORUN, run.results().get("a.two").status());
        assertTrue(run.results().get("a.two").message().contains("boom"), run.results().get("a.two").message());
        assertFalse(run.isClean());
    }

    @Test
    void shouldEscapeMessagesInTheHtmlPage()
    {
        final String output = "@@META\ta.one\tFENCE\t1\texpect\tsrc\n@@CASE\ta.one\tFAIL\t1\tvalue <7> & \"x\"\n@@DONE\t1\t1";
        final String html = new MatrixReport(List.of(ConfigurationRun.parse(CONFIGURATION,
            output, false, 1))).html();

        assertTrue(html.contains("value &lt;7&gt; &amp; &quot;x&quot;"), html);
        assertFalse(html.contains("<7>"), html);
    }

    @Test
    void shouldLinkEachCaseToItsChecklistEntry()
    {
        final Case fenceCase = Catalog.select(List.of("fence.legal-assertions")).get(0);
        final String output = ResultLines.meta(fenceCase) + "\n" + ResultLines.result(fenceCase.id(), Status.PASS, 1, "") +
            "\n@@DONE\t1\t1";
        final ConfigurationRun run = ConfigurationRun.parse(CONFIGURATION, output, false, 1);
        final MatrixReport report = new MatrixReport(List.of(run), "../../docs/conformance-checklist.md");

        assertEquals("fence-assertions-are-checked", run.cases().get(0).checklist());
        assertTrue(report.markdown().contains(
            "[`fence.legal-assertions`](../../docs/conformance-checklist.md#fence-assertions-are-checked)"), report.markdown());
        assertTrue(report.html().contains("<a href=\"../../docs/conformance-checklist.md#fence-assertions-are-checked\">" +
            "<code>fence.legal-assertions</code></a>"), report.html());
    }

    @Test
    void shouldFindTheChecklistFromWhereTheReportsGo()
    {
        final Path root = Citations.root();

        assertEquals("../../docs/conformance-checklist.md", MatrixReport.checklistHref(root.resolve("target/conformance")));
        assertEquals("../../../docs/conformance-checklist.md",
            MatrixReport.checklistHref(root.resolve("conformance/target/conformance")));
    }

    @Test
    void shouldHaveAtLeastSeventyCasesWithDistinctIdsAndSources()
    {
        final List<Case> cases = Catalog.all();
        final Set<CaseGroup> groups = new HashSet<>();
        cases.forEach(c -> groups.add(c.group()));

        assertTrue(cases.size() >= 70, "cases: " + cases.size());
        assertEquals(Set.of(CaseGroup.values()), groups, "every group should have cases");
        assertTrue(cases.stream().noneMatch(c -> c.source().isBlank() || c.expectation().isBlank()));
    }

    @Test
    void shouldSumUpByFlavourAndNodesAndSayWhyCasesSkipOtherFlavours()
    {
        final Case layout = Catalog.select(List.of("layout.contiguous-default")).get(0);
        final Case name = Catalog.select(List.of("attr.name")).get(0);
        final String output = ResultLines.meta(layout) + "\n" + ResultLines.meta(name) + "\n" +
            ResultLines.result(layout.id(), Status.SKIP, 0, "allocateShared only: " + layout.flavourNote()) + "\n" +
            ResultLines.result(name.id(), Status.PASS, 1, "") + "\n@@DONE\t2\t0";
        final Configuration twoNodes = Configuration.of(MpjDevice.NIODEV, 4, Flavour.CREATE, 2, "kupl");
        final ConfigurationRun run = ConfigurationRun.parse(twoNodes, output, false, 1);
        final MatrixReport report = new MatrixReport(List.of(run));

        assertEquals("niodev np4 create 2 nodes", twoNodes.label());
        assertEquals("allocateShared", run.cases().get(0).flavours());
        assertTrue(report.consoleTable().contains("create, 2 nodes"), report.consoleTable());
        assertTrue(report.consoleTable().contains("1 pass,     1 skip, 0 not passed"), report.consoleTable());
        assertTrue(report.markdown().contains("| create, 2 nodes | 1 | 1 | 1 | 0 |"), report.markdown());
        assertTrue(report.markdown().contains("- allocateShared only: " + layout.flavourNote() +
            ": `layout.contiguous-default`"), report.markdown());
        assertTrue(report.html().contains("<h2>Not on every flavour</h2>"), report.html());
    }

    @Test
    void shouldRefuseConfigurationsOfSeveralNodesOffTheDevicesThatSpanNodes()
    {
        assertThrows(IllegalArgumentException.class,
            () -> Configuration.of(MpjDevice.MULTICORE, 4, Flavour.ALLOCATE, 2, "kupl"));
        assertEquals("shm np4 allocate 2 nodes", Configuration.of(MpjDevice.SHM, 4, Flavour.ALLOCATE, 2, "kupl")
            .label());
        assertThrows(IllegalArgumentException.class,
            () -> Configuration.of(MpjDevice.NIODEV, 1, Flavour.ALLOCATE, 2, "kupl"));
    }

    @Test
    void shouldSelectCasesByIdAndPrefix()
    {
        assertEquals(1, Catalog.select(List.of("attr.name")).size());
        assertTrue(Catalog.select(List.of("fence.")).stream().allMatch(c -> c.group() == CaseGroup.FENCE));
    }
}
