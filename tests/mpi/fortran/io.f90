! Free form with `use mpi`: MPI-IO from Fortran. Every rank writes its own
! block of a shared file at an explicit offset (INTEGER(MPI_OFFSET_KIND)),
! then reads back its neighbour's block, and the collective forms through a
! file view; the file name (a CHARACTER argument) comes from rank 0.
program io
  use mpi
  use checks
  implicit none
  integer, parameter :: n = 8
  integer :: ierr, rank, size, fh, i, count, next
  integer :: status(MPI_STATUS_SIZE)
  integer :: out(n), in(n)
  integer(kind=MPI_OFFSET_KIND) :: offset, fsize
  character(len=256) :: path
  character(len=32) :: tag

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  next = mod(rank + 1, size)
  if (rank == 0) then
    ! /tmp and no formatted WRITE: libgfortran's GET_ENVIRONMENT_VARIABLE
    ! and format parser read one byte past their string arguments
    ! (strndup), which AddressSanitizer's strict string checks report.
    tag = decimal(getpid_())
    path = '/tmp/ftmpi_fortran_io_' // trim(tag) // '_' // trim(decimal(int(mod(MPI_Wtime() * 1000, 1d9))))
  end if
  call MPI_Bcast(path, len(path), MPI_CHARACTER, 0, MPI_COMM_WORLD, ierr)

  call MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE + MPI_MODE_RDWR, MPI_INFO_NULL, fh, ierr)
  call check(ierr == MPI_SUCCESS .and. fh /= MPI_FILE_NULL, 'file_open')
  out = [(rank * 100 + i, i = 1, n)]
  offset = int(rank, MPI_OFFSET_KIND) * n * 4
  call MPI_File_write_at(fh, offset, out, n, MPI_INTEGER, status, ierr)
  call check(ierr == MPI_SUCCESS, 'file_write_at')
  call MPI_Get_count(status, MPI_INTEGER, count, ierr)
  call check(count == n, 'write_at status count')
  call MPI_File_sync(fh, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_File_sync(fh, ierr)
  call MPI_File_get_size(fh, fsize, ierr)
  call check(fsize == int(size, MPI_OFFSET_KIND) * n * 4, 'file_get_size')
  in = -1
  call MPI_File_read_at(fh, int(next, MPI_OFFSET_KIND) * n * 4, in, n, MPI_INTEGER, status, ierr)
  call check(ierr == MPI_SUCCESS .and. all(in == [(next * 100 + i, i = 1, n)]), 'file_read_at of the neighbour')

  ! Collective read through a view that starts at the neighbour's block.
  call MPI_File_set_view(fh, int(next, MPI_OFFSET_KIND) * n * 4, MPI_INTEGER, MPI_INTEGER, 'native', &
                         MPI_INFO_NULL, ierr)
  call check(ierr == MPI_SUCCESS, 'file_set_view')
  in = -1
  call MPI_File_read_all(fh, in, n, MPI_INTEGER, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. in(n) == next * 100 + n, 'file_read_all through the view')
  call MPI_File_close(fh, ierr)
  call check(fh == MPI_FILE_NULL, 'file_close')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    call MPI_File_delete(path, MPI_INFO_NULL, ierr)
    call check(ierr == MPI_SUCCESS, 'file_delete')
    print *, 'io: ok on', size, 'ranks'
  end if
  call MPI_Finalize(ierr)

contains
  ! The decimal digits of n >= 0.
  function decimal(n) result(text)
    integer, intent(in) :: n
    character(len=32) :: text
    integer :: v
    text = ''
    v = n
    do
      text = achar(iachar('0') + mod(v, 10)) // text(1:31)
      v = v / 10
      if (v == 0) exit
    end do
  end function decimal

  integer function getpid_()
    use, intrinsic :: iso_c_binding, only: c_int
    interface
      integer(c_int) function c_getpid() bind(C, name='getpid')
        import :: c_int
      end function c_getpid
    end interface
    getpid_ = int(c_getpid())
  end function getpid_
end program io
