! The `use mpi_ext` module of libftmpi: the fault-tolerance extensions
! (ULFM's MPIX_ routines and error classes, FT-MPI's communicator modes), as
! mpi-ext.h gives them to C. Programs using mpif.h include mpif-ext.h
! instead (after mpif.h).
module mpi_ext
  use mpi
  implicit none
  include 'mpif-ext.h'
  include 'mpi_ext_interfaces.f90'
end module mpi_ext
