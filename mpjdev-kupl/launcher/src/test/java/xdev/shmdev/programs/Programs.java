package xdev.shmdev.programs;

import java.util.LinkedHashMap;
import java.util.Map;

import mpi.Intracomm;
import mpi.MPI;

/**
 * Runs ordinary mpiJava 1.2 programs in one MPI session and prints one line per program and rank,
 * {@code RESULT <program> <rank>: <summary>}, so that the lines of a run on one device can be
 * compared with a run on another. Arguments after MPI's: program names (all if none).
 */
public final class Programs
{
    /** One program: returns this rank's summary. */
    interface Program
    {
        String run(Intracomm comm) throws Exception;
    }

    static final Map<String, Program> ALL = new LinkedHashMap<>();

    static
    {
        ALL.put("pingpong", comm -> PingPong.run(comm));
        ALL.put("ring", Ring::run);
        ALL.put("collectives", Collectives::run);
        ALL.put("sendrecv", SendrecvShift::run);
        ALL.put("wildcards", WildcardsProbe::run);
        ALL.put("ssend", SynchronousSend::run);
        ALL.put("waitany", WaitanyTestall::run);
        ALL.put("split", SplitComm::run);
        ALL.put("derived", DerivedTypes::run);
    }

    private Programs()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        main(args, new String[0]);
    }

    static void main(final String[] args, final String... names) throws Exception
    {
        final String[] rest = MPI.Init(args);
        final String[] chosen = names.length > 0 ? names : rest.length > 0 ? rest : ALL.keySet().toArray(new String[0]);
        final Intracomm world = MPI.COMM_WORLD;
        for (final String name : chosen)
        {
            final Program program = ALL.get(name);
            if (program == null)
            {
                throw new IllegalArgumentException("no program '" + name + "'; choose from " + ALL.keySet());
            }
            // Each program gets its own communicator: its wildcard receives cannot take the next one's messages.
            final Intracomm comm = (Intracomm)world.clone();
            final String summary = program.run(comm);
            comm.Barrier();
            comm.Free();
            System.out.println("RESULT " + name + " " + world.Rank() + ": " + summary);
        }
        MPI.Finalize();
    }
}
