/**
 * Datatypes: MPJ Express's basic types and operators as the one-sided calls move and combine them, and derived
 * types flattened into block lists.
 *
 * <p>Not API: internal to {@code mpi.rma}, which is what programs use; it may change in any release, and
 * {@code module-info} does not export it.
 */
package mpi.rma.internal.types;
