! The `use mpi` module of libftmpi: the constants of mpif.h and explicit
! interfaces for the routines of the Fortran bindings. Choice buffers take
! any type, kind and rank (gfortran's NO_ARG_CHECK, as Open MPI's "use mpi"
! with ignore-TKR does); every other argument is checked. MPI_WTIME and
! MPI_WTICK stay the DOUBLE PRECISION EXTERNALs of mpif.h.
! Built with gfortran by ftmpi/fortran/CMakeLists.txt; the generated
! interfaces come from gen_bindings.py.
module mpi
  implicit none
  include 'mpif.h'
  include 'mpi_interfaces.f90'

  ! The routines written by hand (ftmpi/fortran/special.cpp, spawn.cpp,
  ! attributes.cpp, errhandlers.cpp, pending.cpp).
  interface
    subroutine MPI_Comm_spawn(command, argv, maxprocs, info, root, comm, intercomm, array_of_errcodes, ierror)
      implicit none
      character(len=*) :: command
      character(len=*), dimension(*) :: argv
      integer :: maxprocs, info, root, comm, intercomm, ierror
      integer, dimension(*) :: array_of_errcodes
    end subroutine MPI_Comm_spawn
    subroutine MPI_Comm_spawn_multiple(count, array_of_commands, array_of_argv, array_of_maxprocs, array_of_info, &
                                       root, comm, intercomm, array_of_errcodes, ierror)
      implicit none
      integer :: count, root, comm, intercomm, ierror
      character(len=*), dimension(*) :: array_of_commands
      character(len=*), dimension(count, *) :: array_of_argv
      integer, dimension(*) :: array_of_maxprocs, array_of_info, array_of_errcodes
    end subroutine MPI_Comm_spawn_multiple
    subroutine MPI_Init(ierror)
      implicit none
      integer :: ierror
    end subroutine MPI_Init
    subroutine MPI_Init_thread(required, provided, ierror)
      implicit none
      integer :: required, provided, ierror
    end subroutine MPI_Init_thread
    subroutine MPI_Buffer_detach(buffer, size, ierror)
      implicit none
      !GCC$ ATTRIBUTES NO_ARG_CHECK :: buffer
      real, dimension(*) :: buffer
      integer :: size, ierror
    end subroutine MPI_Buffer_detach
    subroutine MPI_Info_get(info, key, valuelen, value, flag, ierror)
      implicit none
      integer :: info, valuelen, ierror
      character(len=*) :: key, value
      logical :: flag
    end subroutine MPI_Info_get
    subroutine MPI_Op_create(user_fn, commute, op, ierror)
      implicit none
      external :: user_fn
      logical :: commute
      integer :: op, ierror
    end subroutine MPI_Op_create
    subroutine MPI_Op_free(op, ierror)
      implicit none
      integer :: op, ierror
    end subroutine MPI_Op_free
    subroutine MPI_Comm_get_attr(comm, comm_keyval, attribute_val, flag, ierror)
      import
      implicit none
      integer :: comm, comm_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val
      logical :: flag
    end subroutine MPI_Comm_get_attr
    subroutine MPI_Comm_idup(comm, newcomm, request, ierror)
      implicit none
      integer :: comm, newcomm, request, ierror
    end subroutine MPI_Comm_idup
    subroutine MPI_Comm_idup_with_info(comm, info, newcomm, request, ierror)
      implicit none
      integer :: comm, info, newcomm, request, ierror
    end subroutine MPI_Comm_idup_with_info
    subroutine MPI_Comm_create_errhandler(comm_errhandler_fn, errhandler, ierror)
      implicit none
      external :: comm_errhandler_fn
      integer :: errhandler, ierror
    end subroutine MPI_Comm_create_errhandler
    subroutine MPI_Comm_create_keyval(comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, extra_state, ierror)
      import
      implicit none
      external :: comm_copy_attr_fn, comm_delete_attr_fn
      integer :: comm_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: extra_state
    end subroutine MPI_Comm_create_keyval
    subroutine MPI_Comm_set_attr(comm, comm_keyval, attribute_val, ierror)
      import
      implicit none
      integer :: comm, comm_keyval, ierror
      integer(kind=MPI_ADDRESS_KIND) :: attribute_val
    end subroutine MPI_Comm_set_attr
  end interface
end module mpi
