! Free form with `use mpi`: partitioned communication (MPI-4) around a
! ring, two rounds, the partitions marked through MPI_Pready,
! MPI_Pready_range and MPI_Pready_list, MPI_Parrived until the message is in.
program partitioned
  use mpi
  use checks
  implicit none
  integer, parameter :: parts = 4, per = 3
  integer :: ierr, rank, size, next, prev, round, i, k
  integer :: reqs(2), list(2)
  integer(kind=MPI_COUNT_KIND) :: count
  integer :: out(parts * per), in(parts * per)
  logical :: arrived

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  next = mod(rank + 1, size)
  prev = mod(rank + size - 1, size)
  count = per
  call MPI_Psend_init(out, parts, count, MPI_INTEGER, next, 5, MPI_COMM_WORLD, MPI_INFO_NULL, reqs(1), ierr)
  call check(ierr == MPI_SUCCESS, 'psend_init')
  call MPI_Precv_init(in, parts, count, MPI_INTEGER, prev, 5, MPI_COMM_WORLD, MPI_INFO_NULL, reqs(2), ierr)
  call check(ierr == MPI_SUCCESS, 'precv_init')
  do round = 1, 2
    out = [(1000 * round + 100 * rank + i, i = 1, parts * per)]
    in = -1
    call MPI_Startall(2, reqs, ierr)
    call MPI_Pready(3, reqs(1), ierr)
    call check(ierr == MPI_SUCCESS, 'pready')
    list = [0, 2]
    call MPI_Pready_list(2, list, reqs(1), ierr)
    call check(ierr == MPI_SUCCESS, 'pready_list')
    call MPI_Pready_range(1, 1, reqs(1), ierr)
    call check(ierr == MPI_SUCCESS, 'pready_range')
    arrived = .false.
    do k = 1, 100000000
      call MPI_Parrived(reqs(2), parts - 1, arrived, ierr)
      if (arrived) exit
    end do
    call check(arrived, 'parrived')
    call MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE, ierr)
    call check(ierr == MPI_SUCCESS, 'waitall')
    call check(all(in == [(1000 * round + 100 * prev + i, i = 1, parts * per)]), 'received data')
  end do
  call MPI_Request_free(reqs(1), ierr)
  call MPI_Request_free(reqs(2), ierr)
  if (rank == 0) print *, 'partitioned: ok'
  call MPI_Finalize(ierr)
end program partitioned
