! Free form with `use mpi`: a derived datatype (a row of a column-major
! matrix as MPI_Type_vector), its size and extent; a struct of absolute
! addresses (MPI_Get_address, INTEGER(MPI_ADDRESS_KIND) arrays, an array of
! datatype handles) used from MPI_BOTTOM; MPI_Type_create_f90_real; a user-defined
! reduction written in Fortran (called with Fortran arguments, including
! the datatype handle).
module user_op_state
  implicit none
  integer :: calls = 0
  integer :: seen_type = -1
end module user_op_state

program types_ops
  use mpi
  use checks
  implicit none
  external :: absmax
  integer, parameter :: n = 4
  integer :: ierr, rank, size, rowtype, tsize, op, i, j, next, prev
  integer(kind=MPI_ADDRESS_KIND) :: lb, extent
  double precision :: a(n, n), b(n, n)
  integer :: v(3), res(3)
  ! Reached only through MPI_BOTTOM and their addresses: VOLATILE so the
  ! compiler re-reads them after the call that changed them.
  integer, volatile :: ival
  double precision, volatile :: dval
  integer :: blens(2), types(2), stype, f90type
  integer(kind=MPI_ADDRESS_KIND) :: disps(2)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  next = mod(rank + 1, size)
  prev = mod(rank + size - 1, size)

  ! Row 2 of a(n,n): n elements, stride n.
  call MPI_Type_vector(n, 1, n, MPI_DOUBLE_PRECISION, rowtype, ierr)
  call MPI_Type_commit(rowtype, ierr)
  call check(ierr == MPI_SUCCESS .and. rowtype /= MPI_DATATYPE_NULL, 'type_vector')
  call MPI_Type_size(rowtype, tsize, ierr)
  call check(tsize == n * 8, 'type_size')
  call MPI_Type_get_extent(rowtype, lb, extent, ierr)
  call check(lb == 0 .and. extent == ((n - 1) * n + 1) * 8, 'type_get_extent')
  do j = 1, n
    do i = 1, n
      a(i, j) = rank * 100 + i * 10 + j
    end do
  end do
  b = -1
  call MPI_Sendrecv(a(2, 1), 1, rowtype, next, 1, b(3, 1), 1, rowtype, prev, 1, MPI_COMM_WORLD, &
                    MPI_STATUS_IGNORE, ierr)
  do j = 1, n
    call check(b(3, j) == prev * 100 + 20 + j, 'row received into row 3')
    call check(b(2, j) == -1 .and. b(4, j) == -1, 'other rows untouched')
  end do
  call MPI_Type_free(rowtype, ierr)
  call check(rowtype == MPI_DATATYPE_NULL, 'type_free')

  ! Struct by absolute addresses, exchanged around the ring in place.
  call MPI_Get_address(ival, disps(1), ierr)
  call MPI_Get_address(dval, disps(2), ierr)
  blens = 1
  types = [MPI_INTEGER, MPI_DOUBLE_PRECISION]
  call MPI_Type_create_struct(2, blens, disps, types, stype, ierr)
  call MPI_Type_commit(stype, ierr)
  call check(ierr == MPI_SUCCESS, 'type_create_struct')
  call MPI_Type_size(stype, tsize, ierr)
  call check(tsize == 12, 'struct size')
  ival = rank
  dval = rank + 0.5d0
  call MPI_Sendrecv_replace(MPI_BOTTOM, 1, stype, next, 3, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. ival == prev .and. dval == prev + 0.5d0, 'struct from MPI_BOTTOM')
  call MPI_Type_free(stype, ierr)

  ! A Fortran 90 kind as a datatype.
  call MPI_Type_create_f90_real(15, 300, f90type, ierr)
  call check(ierr == MPI_SUCCESS .and. f90type /= MPI_DATATYPE_NULL, 'type_create_f90_real')
  call MPI_Type_size(f90type, tsize, ierr)
  call check(tsize == 8, 'f90 real(15,300) is 8 bytes')

  ! User op: element-wise maximum of absolute values.
  call MPI_Op_create(absmax, .true., op, ierr)
  call check(ierr == MPI_SUCCESS, 'op_create')
  v = [-(rank + 1), rank, 7]
  call MPI_Allreduce(v, res, 3, MPI_INTEGER, op, MPI_COMM_WORLD, ierr)
  call check(ierr == MPI_SUCCESS, 'allreduce with user op')
  call check(res(1) == size .and. res(2) == size - 1 .and. res(3) == 7, 'user op result')
  call check_user_op_calls(size)
  call MPI_Op_free(op, ierr)
  call check(op == MPI_OP_NULL, 'op_free')

  if (rank == 0) print *, 'types_ops: ok on', size, 'ranks'
  call MPI_Finalize(ierr)
end program types_ops

! Some rank ran the user function (not every rank need: the algorithm
! decides), and every call got MPI_INTEGER as its datatype argument.
subroutine check_user_op_calls(size)
  use user_op_state
  use checks
  implicit none
  integer, intent(in) :: size
  integer :: total, ierr
  call MPI_Allreduce(calls, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (size > 1) call check(total > 0, 'user op was called')
  if (calls > 0) call check(seen_type == MPI_INTEGER, 'user op got MPI_INTEGER')
end subroutine check_user_op_calls

subroutine absmax(invec, inoutvec, len, datatype)
  use user_op_state
  implicit none
  integer :: len, datatype
  integer :: invec(len), inoutvec(len)
  integer :: i
  calls = calls + 1
  seen_type = datatype
  do i = 1, len
    inoutvec(i) = max(abs(invec(i)), abs(inoutvec(i)))
  end do
end subroutine absmax
