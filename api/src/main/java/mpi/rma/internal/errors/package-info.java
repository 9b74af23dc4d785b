/**
 * Error handlers on windows (MPI-4.1 §9.3, §12.6.1): the one each window has, and
 * {@code ERRORS_ARE_FATAL}'s abort. Not API.
 */
package mpi.rma.internal.errors;
