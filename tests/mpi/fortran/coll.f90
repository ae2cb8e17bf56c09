! Free form with `use mpi`: blocking and non-blocking collectives, with
! MPI_IN_PLACE, checked value by value.
program coll
  use mpi
  use checks
  implicit none
  integer :: ierr, rank, size, i, root, req
  integer :: x, total
  integer, allocatable :: all(:), sendv(:), recvv(:)
  double precision :: d(4), dsum(4)
  real :: r

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  allocate(all(size), sendv(size), recvv(size))

  ! Bcast from the last rank.
  root = size - 1
  x = -1
  if (rank == root) x = 4711
  call MPI_Bcast(x, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. x == 4711, 'bcast')

  ! Reduce to 0, sum and max of doubles.
  d = [(rank + i * 0.5d0, i = 1, 4)]
  dsum = 0
  call MPI_Reduce(d, dsum, 4, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call check(abs(dsum(2) - (size * (size - 1) / 2 + size * 1.0d0)) < 1d-9, 'reduce sum')
  call MPI_Reduce(real(rank), r, 1, MPI_REAL, MPI_MAX, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) call check(r == real(size - 1), 'reduce max')

  ! Allreduce in place.
  x = rank + 1
  call MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS .and. x == size * (size + 1) / 2, 'allreduce in place')

  ! Gather to 1 (or 0), then gather in place at the root.
  root = min(1, size - 1)
  all = -1
  call MPI_Gather(rank * 3, 1, MPI_INTEGER, all, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  if (rank == root) call check(all(size) == (size - 1) * 3 .and. all(1) == 0, 'gather')
  all = -1
  if (rank == root) all(rank + 1) = rank * 5
  if (rank == root) then
    call MPI_Gather(MPI_IN_PLACE, 1, MPI_INTEGER, all, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  else
    call MPI_Gather(rank * 5, 1, MPI_INTEGER, all, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
  end if
  if (rank == root) call check(all(size) == (size - 1) * 5 .and. all(root + 1) == root * 5, 'gather in place')

  ! Allgather, scatter.
  call MPI_Allgather(rank + 10, 1, MPI_INTEGER, all, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  call check(all(size) == size + 9, 'allgather')
  sendv = [(100 + i, i = 1, size)]
  call MPI_Scatter(sendv, 1, MPI_INTEGER, x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call check(x == 101 + rank, 'scatter')

  ! Alltoall: element j goes to rank j-1.
  sendv = [(rank * 100 + i - 1, i = 1, size)]
  recvv = -1
  call MPI_Alltoall(sendv, 1, MPI_INTEGER, recvv, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do i = 1, size
    call check(recvv(i) == (i - 1) * 100 + rank, 'alltoall')
  end do

  ! Scan.
  call MPI_Scan(1, x, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call check(x == rank + 1, 'scan')

  ! Non-blocking: iallreduce, ibcast, ibarrier.
  total = 0
  call MPI_Iallreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call check(total == size * (size - 1) / 2 .and. req == MPI_REQUEST_NULL, 'iallreduce')
  x = 0
  if (rank == 0) x = 77
  call MPI_Ibcast(x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call check(x == 77, 'ibcast')
  call MPI_Ibarrier(MPI_COMM_WORLD, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS, 'ibarrier')

  deallocate(all, sendv, recvv)
  if (rank == 0) print *, 'coll: ok on', size, 'ranks'
  call MPI_Finalize(ierr)
end program coll
