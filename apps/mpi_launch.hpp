#pragma once
// Whether this process was started by an MPI launcher (mpirun, mpiexec,
// srun), read from the variables the launchers set for each process:
// OpenMPI's OMPI_COMM_WORLD_SIZE, the PMI_SIZE of MPICH's Hydra and of
// Slurm's PMI, PMIx's PMIX_RANK (OpenMPI 4 and Slurm set it; it carries no
// size). The command reads them once, in main(), before deciding whether
// to initialise MPI: a process started by hand never loads MPI's runtime
// into its run.
namespace oocfft::apps {

struct MpiLaunch {
  bool launched = false;
  int ranks = 0;  // the launcher's count of processes; 0 when it did not say
};

MpiLaunch mpi_launch_from_environment();

}  // namespace oocfft::apps
