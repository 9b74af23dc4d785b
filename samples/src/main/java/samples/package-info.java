/**
 * Samples of MPI-3 shared-memory windows for MPJ Express. {@link samples.kupl}: KUPL's two C
 * examples ported line by line over the {@code kupl.Kupl} facade. {@link samples.rma}: the same
 * examples and teaching programs over {@code mpi.rma}. {@link samples.docs}: the generator of the
 * tutorial's figures. Run any of them with {@code bin/sample NAME}.
 */
package samples;
