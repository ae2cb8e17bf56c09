! Free form with `use mpi`: the dynamic-process calls with CHARACTER port
! and service names. Rank 0 opens a port, publishes it and finds it again
! with MPI_Lookup_name, then hands the name to the high half of the world
! (MPI_Bcast); the low half accepts, the high half connects, and the low
! root broadcasts over the intercommunicator. An unknown name's lookup
! returns MPI_ERR_NAME with MPI_ERRORS_RETURN.
program dynamic
  use mpi
  use checks
  implicit none
  integer :: ierr, rank, size, half, inter, remote, value, eclass
  logical :: low
  character(len=MPI_MAX_PORT_NAME) :: port, found

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  low = rank < size / 2
  call MPI_Comm_split(MPI_COMM_WORLD, merge(0, 1, low), rank, half, ierr)
  call check(ierr == MPI_SUCCESS, 'comm_split')

  port = ' '
  if (rank == 0) then
    call MPI_Open_port(MPI_INFO_NULL, port, ierr)
    call check(ierr == MPI_SUCCESS .and. port(1:11) == 'ftmpi-port:', 'open_port')
    call MPI_Publish_name('fortran-dynamic', MPI_INFO_NULL, port, ierr)
    call check(ierr == MPI_SUCCESS, 'publish_name')
    call MPI_Lookup_name('fortran-dynamic', MPI_INFO_NULL, found, ierr)
    call check(ierr == MPI_SUCCESS .and. found == port, 'lookup_name')
    call MPI_Lookup_name('fortran-unknown', MPI_INFO_NULL, found, ierr)
    call MPI_Error_class(ierr, eclass, ierr)
    call check(eclass == MPI_ERR_NAME, 'lookup of an unknown name')
    call MPI_Unpublish_name('fortran-dynamic', MPI_INFO_NULL, port, ierr)
    call check(ierr == MPI_SUCCESS, 'unpublish_name')
  end if
  call MPI_Bcast(port, MPI_MAX_PORT_NAME, MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)

  if (low) then
    call MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, inter, ierr)
    call check(ierr == MPI_SUCCESS, 'comm_accept')
  else
    call MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, inter, ierr)
    call check(ierr == MPI_SUCCESS, 'comm_connect')
  end if
  call MPI_Comm_remote_size(inter, remote, ierr)
  call check(remote == merge(size - size / 2, size / 2, low), 'remote size')
  value = -1
  if (rank == 0) then
    value = 42
    call MPI_Bcast(value, 1, MPI_INTEGER, MPI_ROOT, inter, ierr)
  else if (low) then
    call MPI_Bcast(value, 1, MPI_INTEGER, MPI_PROC_NULL, inter, ierr)
  else
    call MPI_Bcast(value, 1, MPI_INTEGER, 0, inter, ierr)
    call check(value == 42, 'bcast over the intercommunicator')
  end if
  call check(ierr == MPI_SUCCESS, 'bcast')
  call MPI_Comm_free(inter, ierr)
  if (rank == 0) then
    call MPI_Close_port(port, ierr)
    call check(ierr == MPI_SUCCESS, 'close_port')
    print *, 'fortran dynamic: ok (', size, ' ranks)'
  end if
  call MPI_Comm_free(half, ierr)
  call MPI_Finalize(ierr)
end program dynamic
