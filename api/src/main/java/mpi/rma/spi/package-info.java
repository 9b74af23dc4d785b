/**
 * The provider interface behind {@link mpi.rma.Win}: how a shared-memory engine plugs in.
 * Users never call it.
 */
package mpi.rma.spi;
