! A user's Fortran program with `use mpi`, compiled by mpifort / mpif90.
program hello
  use mpi
  implicit none
  integer :: ierr, rank, size, sum
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call MPI_Allreduce(rank, sum, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  ! List-directed: a formatted WRITE trips AddressSanitizer's strict string
  ! checks inside libgfortran (the check squeezes the blanks).
  if (rank == 0) print *, 'hello from Fortran:', size, 'ranks, sum', sum
  call MPI_Finalize(ierr)
end program hello
