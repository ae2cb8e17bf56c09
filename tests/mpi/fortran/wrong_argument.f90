! Must NOT compile: `use mpi` gives explicit interfaces, so a REAL where
! MPI_Comm_rank takes an INTEGER rank is a compile-time error (test
! fortran_interfaces_checked), while choice buffers take any type.
program wrong_argument
  use mpi
  implicit none
  integer :: ierr
  real :: rank
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Finalize(ierr)
end program wrong_argument
