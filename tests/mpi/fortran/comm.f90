! Free form with `use mpi`: MPI_Comm_split (even and odd ranks), groups,
! names (CHARACTER arguments both ways), a Cartesian topology, and error
! return: with MPI_ERRORS_RETURN a send to an invalid rank returns an error
! whose class is MPI_ERR_RANK, and MPI_Error_string describes it.
! Attributes with a keyval whose callbacks are MPI_COMM_DUP_FN and a
! Fortran delete subroutine; an error handler written in Fortran.
module keyval_state
  implicit none
  integer :: deletes = 0
  integer(kind=8) :: deleted_value = 0, deleted_extra = 0
  ! What the Fortran error handler saw.
  integer :: handler_calls = 0, handler_comm = -1, handler_code = 0
end module keyval_state

program comm
  use mpi
  use checks
  implicit none
  integer :: ierr, rank, size, half, hrank, hsize, color, x, eclass, slen, n
  integer :: grp, wgrp, gsize, cart, ndims, src, dst, crank, result
  integer :: dims(2), coords(2), ranks(1), out(1)
  logical :: periods(2), flag
  character(len=MPI_MAX_ERROR_STRING) :: msg
  character(len=MPI_MAX_OBJECT_NAME) :: name
  integer :: errh, info
  integer(kind=MPI_ADDRESS_KIND) :: tag_ub, aval, extra
  integer :: keyval, c1, c2
  external :: record_delete, record_error
  integer :: myhandler, c3, c4, req
  integer :: nbr_send(4), nbr_recv(4)
  character(len=16) :: value

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)

  ! Split by parity, key reverses the order.
  color = mod(rank, 2)
  call MPI_Comm_split(MPI_COMM_WORLD, color, -rank, half, ierr)
  call check(ierr == MPI_SUCCESS .and. half /= MPI_COMM_NULL, 'comm_split')
  call MPI_Comm_size(half, hsize, ierr)
  call MPI_Comm_rank(half, hrank, ierr)
  call check(hsize == (size + 1 - color) / 2, 'split size')
  ! Reversed order: the highest rank of my colour is 0.
  x = rank
  call MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_INTEGER, MPI_MAX, half, ierr)
  if (x == rank) call check(hrank == 0, 'highest rank first (key = -rank)')
  call MPI_Allreduce(1, x, 1, MPI_INTEGER, MPI_SUM, half, ierr)
  call check(x == hsize, 'allreduce over the split comm')
  call MPI_Comm_compare(half, MPI_COMM_WORLD, result, ierr)
  if (size > 1) call check(result == MPI_UNEQUAL, 'split comm unequal to world')

  ! Groups: world's group, my rank translated.
  call MPI_Comm_group(half, grp, ierr)
  call MPI_Comm_group(MPI_COMM_WORLD, wgrp, ierr)
  call MPI_Group_size(grp, gsize, ierr)
  call check(gsize == hsize, 'group_size')
  ranks(1) = hrank
  call MPI_Group_translate_ranks(grp, 1, ranks, wgrp, out, ierr)
  call check(out(1) == rank, 'group_translate_ranks')
  call MPI_Group_free(grp, ierr)
  call MPI_Group_free(wgrp, ierr)
  call check(grp == MPI_GROUP_NULL, 'group_free')

  ! Names.
  call MPI_Comm_set_name(half, 'parity  ', ierr)
  name = 'garbage'
  call MPI_Comm_get_name(half, name, n, ierr)
  call check(n == 6 .and. name == 'parity', 'comm names: trailing blanks dropped, result blank-padded')
  call MPI_Comm_free(half, ierr)
  call check(half == MPI_COMM_NULL, 'comm_free')

  ! MPI_Comm_idup: the new handle is set when the request completes.
  c4 = MPI_COMM_NULL
  call MPI_Comm_idup(MPI_COMM_WORLD, c4, req, ierr)
  call check(ierr == MPI_SUCCESS, 'comm_idup')
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call check(ierr == MPI_SUCCESS .and. c4 /= MPI_COMM_NULL, 'comm_idup: handle set at completion')
  call MPI_Allreduce(1, x, 1, MPI_INTEGER, MPI_SUM, c4, ierr)
  call check(x == size, 'allreduce over the idup communicator')
  call MPI_Comm_free(c4, ierr)

  ! Cartesian grid.
  dims = 0
  call MPI_Dims_create(size, 2, dims, ierr)
  call check(dims(1) * dims(2) == size .and. dims(1) >= dims(2), 'dims_create')
  periods = [.true., .false.]
  call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call check(ierr == MPI_SUCCESS .and. cart /= MPI_COMM_NULL, 'cart_create')
  call MPI_Cartdim_get(cart, ndims, ierr)
  call check(ndims == 2, 'cartdim_get')
  call MPI_Cart_coords(cart, rank, 2, coords, ierr)
  call MPI_Cart_rank(cart, coords, crank, ierr)
  call check(crank == rank, 'cart_rank of cart_coords')
  call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
  call check(dst == mod(coords(1) + 1, dims(1)) * dims(2) + coords(2), 'cart_shift periodic')
  call MPI_Cart_shift(cart, 1, 1, src, dst, ierr)
  if (coords(2) == dims(2) - 1) call check(dst == MPI_PROC_NULL, 'cart_shift non-periodic edge')
  ! Neighbourhood exchange on the grid: from each of the four neighbours
  ! (MPI_PROC_NULL at the non-periodic edges) its rank.
  nbr_send = rank
  nbr_recv = -7
  call MPI_Neighbor_alltoall(nbr_send, 1, MPI_INTEGER, nbr_recv, 1, MPI_INTEGER, cart, ierr)
  call check(ierr == MPI_SUCCESS, 'neighbor_alltoall')
  call MPI_Cart_shift(cart, 0, 1, src, dst, ierr)
  call check(nbr_recv(1) == src .and. nbr_recv(2) == dst, 'neighbor_alltoall: periodic dimension')
  call MPI_Cart_shift(cart, 1, 1, src, dst, ierr)
  if (src /= MPI_PROC_NULL) call check(nbr_recv(3) == src, 'neighbor_alltoall: lower neighbour')
  if (src == MPI_PROC_NULL) call check(nbr_recv(3) == -7, 'neighbor_alltoall: no lower neighbour')
  call MPI_Comm_free(cart, ierr)

  ! Attributes: MPI_TAG_UB as an INTEGER(MPI_ADDRESS_KIND) value.
  call MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, tag_ub, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. flag .and. tag_ub >= 32767, 'comm_get_attr MPI_TAG_UB')

  ! A keyval from Fortran: MPI_COMM_DUP_FN copies on MPI_Comm_dup, the
  ! Fortran delete subroutine sees the value and the extra state.
  extra = 42
  call MPI_Comm_create_keyval(MPI_COMM_DUP_FN, record_delete, keyval, extra, ierr)
  call check(ierr == MPI_SUCCESS, 'comm_create_keyval')
  call MPI_Comm_dup(MPI_COMM_WORLD, c1, ierr)
  aval = 1234
  call MPI_Comm_set_attr(c1, keyval, aval, ierr)
  call MPI_Comm_dup(c1, c2, ierr)
  aval = 0
  call MPI_Comm_get_attr(c2, keyval, aval, flag, ierr)
  call check(flag .and. aval == 1234, 'MPI_COMM_DUP_FN copied the attribute')
  call MPI_Comm_free(c2, ierr)
  call check_deletes(1, 1234_8, 42_8)
  call MPI_Comm_delete_attr(c1, keyval, ierr)
  call check_deletes(2, 1234_8, 42_8)
  call MPI_Comm_get_attr(c1, keyval, aval, flag, ierr)
  call check(.not. flag, 'attribute deleted')
  call MPI_Comm_free(c1, ierr)
  call MPI_Comm_free_keyval(keyval, ierr)
  call check(ierr == MPI_SUCCESS .and. keyval == MPI_KEYVAL_INVALID, 'comm_free_keyval')

  ! Info: CHARACTER keys and values both ways.
  call MPI_Info_create(info, ierr)
  call MPI_Info_set(info, 'colour ', ' blue', ierr)
  call MPI_Info_get_nkeys(info, n, ierr)
  call check(n == 1, 'info_get_nkeys')
  value = 'xxxxxxxxxxxxxxxx'
  call MPI_Info_get(info, 'colour', len(value), value, flag, ierr)
  call check(flag .and. value == 'blue', 'info_get: value trimmed and blank-padded')
  call MPI_Info_get(info, 'size', len(value), value, flag, ierr)
  call check(ierr == MPI_SUCCESS .and. .not. flag, 'info_get of a missing key')
  call MPI_Info_free(info, ierr)
  call check(info == MPI_INFO_NULL, 'info_free')

  ! Error return.
  call MPI_Comm_get_errhandler(MPI_COMM_WORLD, errh, ierr)
  call check(errh == MPI_ERRORS_ARE_FATAL, 'default error handler is MPI_ERRORS_ARE_FATAL')
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  x = 1
  call MPI_Send(x, 1, MPI_INTEGER, size, 0, MPI_COMM_WORLD, ierr)
  call check(ierr /= MPI_SUCCESS, 'send to rank = size fails')
  call MPI_Error_class(ierr, eclass, ierr)
  call check(eclass == MPI_ERR_RANK, 'error class MPI_ERR_RANK')
  call MPI_Error_string(eclass, msg, slen, ierr)
  call check(slen > 0 .and. len_trim(msg) == slen, 'error string')
  call MPI_Initialized(flag, ierr)
  call check(flag, 'still initialized')

  ! A Fortran error handler is called with the communicator and the code,
  ! then the call returns the error.
  call MPI_Comm_create_errhandler(record_error, myhandler, ierr)
  call check(ierr == MPI_SUCCESS, 'comm_create_errhandler')
  call MPI_Comm_dup(MPI_COMM_WORLD, c3, ierr)
  call MPI_Comm_set_errhandler(c3, myhandler, ierr)
  call MPI_Errhandler_free(myhandler, ierr)
  call check(myhandler == MPI_ERRHANDLER_NULL, 'errhandler_free')
  call MPI_Send(x, 1, MPI_INTEGER, -5, 0, c3, ierr)
  call check(ierr /= MPI_SUCCESS, 'send to rank -5 fails')
  call check_handler(c3)
  call MPI_Comm_free(c3, ierr)

  if (rank == 0) print *, 'comm: ok on', size, 'ranks'
  call MPI_Finalize(ierr)
contains
  subroutine check_handler(c)
    use keyval_state
    integer, intent(in) :: c
    integer :: cls, e
    call check(handler_calls == 1 .and. handler_comm == c, 'error handler called once with the communicator')
    call MPI_Error_class(handler_code, cls, e)
    call check(cls == MPI_ERR_RANK, 'error handler got an MPI_ERR_RANK code')
  end subroutine check_handler

  subroutine check_deletes(n, value, extra_state)
    use keyval_state
    integer, intent(in) :: n
    integer(kind=8), intent(in) :: value, extra_state
    call check(deletes == n, 'delete callback calls')
    call check(deleted_value == value .and. deleted_extra == extra_state, 'delete callback arguments')
  end subroutine check_deletes
end program comm

! A Fortran attribute delete callback: records what it was called with.
subroutine record_delete(comm, keyval, attribute_val, extra_state, ierror)
  use mpi
  use keyval_state
  implicit none
  integer :: comm, keyval, ierror
  integer(kind=MPI_ADDRESS_KIND) :: attribute_val, extra_state
  if (comm == MPI_COMM_NULL .or. keyval == MPI_KEYVAL_INVALID) print *, 'FAILED: delete callback arguments'
  deletes = deletes + 1
  deleted_value = attribute_val
  deleted_extra = extra_state
  ierror = MPI_SUCCESS
end subroutine record_delete

! A Fortran error handler: records its arguments and returns.
subroutine record_error(comm, error_code)
  use keyval_state
  implicit none
  integer :: comm, error_code
  handler_calls = handler_calls + 1
  handler_comm = comm
  handler_code = error_code
end subroutine record_error
