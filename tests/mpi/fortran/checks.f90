! The check every free-form test shares: aborts the whole job, naming the
! failed check, so a mismatch can never pass.
module checks
  use mpi
  implicit none
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer :: ierr
    if (.not. ok) then
      print *, 'FAILED: ', what
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
      error stop 1
    end if
  end subroutine check
end module checks
