/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef VB_MPI_LAUNCHER_H
#define VB_MPI_LAUNCHER_H

#include <stdbool.h>

/*
 * What the environment says of an MPI launcher that started this
 * process: Open MPI's mpirun (OMPI_COMM_WORLD_SIZE), a PMIx launcher
 * (PMIX_RANK) or a PMI one (PMI_RANK, PMI_SIZE: MPICH's hydra, Slurm's
 * srun --mpi=pmi2). Built in every build: the MPI build joins the job it
 * names, the plain build refuses to run in one of many processes
 * (cli/ranks.h).
 */
struct launcher {
	const char *var; /* the variable that says so, e.g. PMI_SIZE */
	const char *value; /* its value */
	/* processes in the job; 0 when the variables do not say (PMIx, or
	 * a size that is not a number) */
	unsigned long size;
};

/* Fills @l and returns true when a launcher's variable is set. */
bool launcher_find(struct launcher *l);

#endif /* VB_MPI_LAUNCHER_H */
