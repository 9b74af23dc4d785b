/**
 * MPI one-sided communication for MPJ Express programs. Exports the API ({@code mpi.rma}), the provider
 * interface ({@code mpi.rma.spi}) and what the project's other modules share with the api ({@code
 * mpi.rma.spi.common}, not API); the implementation ({@code mpi.rma.internal} and below) is not exported.
 * MPJ Express's launchers put every jar on the class path, where this declaration does not apply: there the
 * package names say what is internal.
 */
module mpi.rma
{
    requires transitive mpj;

    exports mpi.rma;
    exports mpi.rma.spi;
    exports mpi.rma.spi.common;

    uses mpi.rma.spi.SharedMemoryProvider;
    uses mpi.rma.spi.DatatypeReader;
    uses mpi.rma.spi.MessagePathFault;
}
