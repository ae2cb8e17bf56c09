! Free form with `use mpi` and `use mpi_ext`: a process failure seen from
! Fortran. Rank 1 dies by SIGKILL (C's raise, called through BIND(C)); the survivors
! get MPIX_ERR_PROC_FAILED (or MPIX_ERR_REVOKED once another survivor has
! revoked) from a receive, then revoke, shrink and agree in Fortran, check
! the failed group and finish on the shrunk communicator.
program ulfm
  use mpi
  use mpi_ext
  implicit none
  integer :: ierr, rank, size, dummy, eclass, small, n, me, total, flag, failed, nfailed, first_class
  integer :: req, again, n2
  logical :: revoked

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  if (rank == 1) call kill_self()

  call MPI_Recv(dummy, 1, MPI_INTEGER, 1, 999, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
  call MPI_Error_class(ierr, first_class, ierr)
  call expect(first_class == MPIX_ERR_PROC_FAILED .or. first_class == MPIX_ERR_REVOKED, &
              'receive from the dead rank fails with MPIX_ERR_PROC_FAILED')

  call MPIX_Comm_revoke(MPI_COMM_WORLD, ierr)
  call expect(ierr == MPI_SUCCESS, 'revoke')
  call MPIX_Comm_is_revoked(MPI_COMM_WORLD, revoked, ierr)
  call expect(revoked, 'is_revoked')
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call MPI_Error_class(ierr, eclass, ierr)
  call expect(eclass == MPIX_ERR_REVOKED, 'barrier on the revoked world: MPIX_ERR_REVOKED')

  call MPIX_Comm_shrink(MPI_COMM_WORLD, small, ierr)
  call expect(ierr == MPI_SUCCESS .and. small /= MPI_COMM_NULL, 'shrink')
  call MPI_Comm_size(small, n, ierr)
  call MPI_Comm_rank(small, me, ierr)
  call expect(n == size - 1, 'shrunk size')
  call expect(me == merge(rank, rank - 1, rank < 1), 'shrunk rank keeps the order')
  call MPI_Comm_set_errhandler(small, MPI_ERRORS_RETURN, ierr)
  call MPI_Allreduce(rank, total, 1, MPI_INTEGER, MPI_SUM, small, ierr)
  call expect(ierr == MPI_SUCCESS .and. total == size * (size - 1) / 2 - 1, 'allreduce on the shrunk comm')

  flag = 1
  if (me == 0) flag = 3
  call MPIX_Comm_agree(small, flag, ierr)
  call expect(ierr == MPI_SUCCESS .and. flag == 1, 'agree: bitwise AND of the flags')
  flag = 6
  if (me == n - 1) flag = 12
  call MPIX_Comm_iagree(small, flag, req, ierr)
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call expect(ierr == MPI_SUCCESS .and. flag == 4, 'iagree: the flag is written at completion')

  ! Non-blocking shrink of the shrunk communicator (no failures there):
  ! the handle is set when the request completes.
  again = MPI_COMM_NULL
  call MPIX_Comm_ishrink(small, again, req, ierr)
  call expect(ierr == MPI_SUCCESS, 'ishrink start')
  call MPI_Wait(req, MPI_STATUS_IGNORE, ierr)
  call expect(ierr == MPI_SUCCESS .and. again /= MPI_COMM_NULL, 'ishrink: handle set at completion')
  call MPI_Comm_size(again, n2, ierr)
  call expect(n2 == n, 'ishrink size')
  call MPI_Comm_free(again, ierr)

  call MPIX_Comm_failure_ack(MPI_COMM_WORLD, ierr)
  call MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, failed, ierr)
  call expect(ierr == MPI_SUCCESS, 'failure_get_acked')
  call MPI_Group_size(failed, nfailed, ierr)
  ! A rank that learned of the revocation first may not know of the
  ! failure yet; one that saw MPIX_ERR_PROC_FAILED must have acknowledged it.
  call expect(nfailed <= 1, 'at most one acknowledged failure')
  if (first_class == MPIX_ERR_PROC_FAILED) call expect(nfailed == 1, 'the failure seen is acknowledged')
  call MPI_Group_free(failed, ierr)

  call MPI_Comm_free(small, ierr)
  if (rank == 0) print *, 'ulfm: survivors', n, 'recovered'
  call MPI_Finalize(ierr)

contains
  ! Dies here, for real: SIGKILL, not an orderly exit.
  subroutine kill_self()
    use, intrinsic :: iso_c_binding, only: c_int
    interface
      integer(c_int) function c_raise(sig) bind(C, name='raise')
        import :: c_int
        integer(c_int), value :: sig
      end function c_raise
    end interface
    integer, parameter :: sigkill = 9  ! Linux
    integer(c_int) :: rc
    flush(6)
    rc = c_raise(int(sigkill, c_int))
    error stop 'raise(SIGKILL) returned'
  end subroutine kill_self

  ! With failures around, MPI_Abort is no way to report: end this rank
  ! with a nonzero status instead.
  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      print *, 'FAILED on rank', rank, ': ', what
      error stop 1
    end if
  end subroutine expect
end program ulfm
