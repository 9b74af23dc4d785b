package mpjrun;

/**
 * What the launcher expects of the kupl agent's jar, which the agent module builds on this module: the launcher
 * names no class of the agent, so the dependency runs one way (agent on launcher) and Maven sees all of it.
 *
 * <ul>
 * <li>Its manifest has the attribute {@value #MARKER_ATTRIBUTE}: that is how {@link AgentJar} tells the agent's
 *     jar from any other (the agent module's POM writes it; the agent's tests check it is there).</li>
 * <li>Its {@code Main-Class} is the agent's weaver, run as
 *     {@code java -jar kupl-agent.jar MPJ_JAR OUT_JAR [}{@value #CORRECTIONS_ONLY}{@code ]}: it writes MPJ
 *     Express's classes as the agent would weave them to {@code OUT_JAR} ({@link WovenMpjClasses}).</li>
 * </ul>
 */
public final class AgentJarContract
{
    /** The manifest attribute that marks the agent's jar. */
    public static final String MARKER_ATTRIBUTE = "Kupl-Agent";
    /** The weaver's option for the agent's corrections of MPJ Express alone (for multicore ranks). */
    public static final String CORRECTIONS_ONLY = "--corrections-only";

    private AgentJarContract()
    {
    }
}
