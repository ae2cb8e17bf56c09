! Free form with `use mpi`: MPI_Comm_spawn from Fortran. The parents start
! two copies of this program with the arguments 'child' and 'x y' (an
! argument list ended by a blank entry); each child checks them, answers
! rank 0 over the parent intercommunicator, and both sides disconnect.
! Then MPI_Comm_spawn_multiple with MPI_ARGVS_NULL starts one more child of
! each of two commands, which see no arguments.
program spawn
  use mpi
  use checks
  implicit none
  integer :: ierr, rank, size, parent, inter, remote, value, c, n
  integer :: codes(2), counts(2), infos(2)
  character(len=4096) :: path, arg
  character(len=16) :: args(3)
  character(len=4096) :: commands(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call MPI_Comm_get_parent(parent, ierr)
  call check(ierr == MPI_SUCCESS, 'comm_get_parent')
  if (parent /= MPI_COMM_NULL) then
    n = command_argument_count()
    if (n > 0) then
      call get_command_argument(1, arg)
      call check(n == 2 .and. arg == 'child', 'a child''s first argument')
      call get_command_argument(2, arg)
      call check(arg == 'x y', 'a child''s second argument keeps its blank')
    end if
    call MPI_Send(rank, 1, MPI_INTEGER, 0, 5, parent, ierr)
    call check(ierr == MPI_SUCCESS, 'a child''s send')
    call MPI_Comm_disconnect(parent, ierr)
    call check(ierr == MPI_SUCCESS .and. parent == MPI_COMM_NULL, 'a child''s disconnect')
    call MPI_Finalize(ierr)
    stop
  end if

  call get_command_argument(0, path)
  args(1) = 'child'
  args(2) = 'x y'
  args(3) = ' '
  call MPI_Comm_spawn(path, args, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, inter, codes, ierr)
  call check(ierr == MPI_SUCCESS .and. all(codes == MPI_SUCCESS), 'comm_spawn')
  call MPI_Comm_remote_size(inter, remote, ierr)
  call check(remote == 2, 'two children')
  if (rank == 0) then
    do c = 0, 1
      call MPI_Recv(value, 1, MPI_INTEGER, c, 5, inter, MPI_STATUS_IGNORE, ierr)
      call check(ierr == MPI_SUCCESS .and. value == c, 'a child''s answer')
    end do
  end if
  call MPI_Comm_disconnect(inter, ierr)
  call check(ierr == MPI_SUCCESS .and. inter == MPI_COMM_NULL, 'disconnect')

  commands(1) = path
  commands(2) = path
  counts = 1
  infos = MPI_INFO_NULL
  call MPI_Comm_spawn_multiple(2, commands, MPI_ARGVS_NULL, counts, infos, 0, MPI_COMM_WORLD, inter, &
                               MPI_ERRCODES_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS, 'comm_spawn_multiple')
  if (rank == 0) then
    do c = 0, 1
      call MPI_Recv(value, 1, MPI_INTEGER, c, 5, inter, MPI_STATUS_IGNORE, ierr)
      call check(ierr == MPI_SUCCESS .and. value == c, 'an answer after spawn_multiple')
    end do
    print *, 'spawn from Fortran: ok'
  end if
  call MPI_Comm_disconnect(inter, ierr)
  call MPI_Finalize(ierr)
end program spawn
