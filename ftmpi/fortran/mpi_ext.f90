! The `use mpi_ext` module of libftmpi: the fault-tolerance extensions
! (ULFM's MPIX_ routines and error classes, FT-MPI's communicator modes), as
! mpi-ext.h gives them to C. Programs using mpif.h include mpif-ext.h
! instead (after mpif.h).
module mpi_ext
  use mpi
  implicit none
  include 'mpif-ext.h'
  include 'mpi_ext_interfaces.f90'

  ! Written by hand (ftmpi/fortran/pending.cpp): NEWCOMM is set when the
  ! request completes.
  interface
    subroutine MPIX_Comm_ishrink(comm, newcomm, request, ierror)
      implicit none
      integer :: comm, newcomm, request, ierror
    end subroutine MPIX_Comm_ishrink
  end interface
end module mpi_ext
