/**
 * The process kit: how every launcher of this project starts, watches, judges and kills the JVMs of
 * a job on this node. {@link mpjrun.process.ProcessJob} runs N processes with their output forwarded
 * or kept ({@link mpjrun.process.OutputForwarder}, {@link mpjrun.process.CapturedOutput}) and kills
 * them with what they started ({@link mpjrun.process.ProcessTree}); {@link mpjrun.process.JobJudge}
 * turns how they ended into one exit status; {@link mpjrun.process.RankJvmDefaults} gives every rank
 * JVM the same options; {@link mpjrun.process.EngineJob} runs a program of the engine's own (no MPI)
 * with the engine's out-of-band hub ({@code kupl.bootstrap.OobHub}).
 */
package mpjrun.process;
