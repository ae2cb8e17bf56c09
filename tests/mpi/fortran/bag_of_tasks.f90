! Free form with `use mpi` and `use mpi_ext`: a ULFM bag of tasks. Rank 0
! hands out tasks (square a number) one at a time; the worker of rank 2
! dies by SIGKILL on receiving its first task. The master's MPI_ANY_SOURCE
! receive fails with MPIX_ERR_PROC_FAILED; it acknowledges the failure
! (MPIX_Comm_failure_ack), finds the dead worker in the acknowledged group
! (MPIX_Comm_failure_get_acked), hands its task to the others, and checks
! that every result arrived exactly once.
module bag
  use mpi
  use mpi_ext
  implicit none
  integer, parameter :: ntasks = 24, victim = 2
  integer :: rank, size
  ! Master's state: tasks to hand out (a queue that failed tasks rejoin),
  ! the task each worker holds (0: none, idle: waiting for one), which
  ! workers are dead.
  integer, parameter :: idle = -1
  integer :: queue(2 * ntasks), head = 1, tail = 0
  integer :: holding(0:63) = 0
  logical :: dead(0:63) = .false.

contains
  subroutine master()
    integer :: got(ntasks), msg(2), status(MPI_STATUS_SIZE), eclass, w, done, failures, ierr
    integer(kind=8) :: total
    got = 0
    do w = 1, ntasks
      call push(w)
    end do
    done = 0
    failures = 0
    total = 0
    do w = 1, size - 1
      call give(w)
    end do
    do while (done < ntasks)
      call MPI_Recv(msg, 2, MPI_INTEGER, MPI_ANY_SOURCE, 2, MPI_COMM_WORLD, status, ierr)
      if (ierr /= MPI_SUCCESS) then
        call MPI_Error_class(ierr, eclass, ierr)
        call expect(eclass == MPIX_ERR_PROC_FAILED .or. eclass == MPIX_ERR_PROC_FAILED_PENDING, &
                    'any-source receive fails with MPIX_ERR_PROC_FAILED')
        call requeue_failed()
        ! Idle workers take the dead workers' tasks.
        do w = 1, size - 1
          if (.not. dead(w) .and. holding(w) == idle) call give(w)
        end do
        failures = failures + 1
        call expect(failures < 10, 'failure reports end once acknowledged')
        cycle
      end if
      w = status(MPI_SOURCE)
      call expect(msg(2) == msg(1) * msg(1), 'result is the square')
      got(msg(1)) = got(msg(1)) + 1
      total = total + msg(2)
      holding(w) = 0
      done = done + 1
      call give(w)
    end do
    ! Only now may the workers stop: until every result is in, a failure
    ! can put a task back into the queue.
    do w = 1, size - 1
      if (.not. dead(w)) call stop_worker(w)
    end do
    call expect(all(got == 1), 'every task done exactly once')
    call expect(total == int(ntasks, 8) * (ntasks + 1) * (2 * ntasks + 1) / 6, 'sum of squares')
    call expect(dead(victim), 'the victim was found dead')
    call expect(count(dead) == 1, 'only the victim was found dead')
    print *, 'bag_of_tasks:', ntasks, 'tasks done,', count(dead), 'worker lost'
  end subroutine master

  subroutine push(task)
    integer, intent(in) :: task
    tail = tail + 1
    queue(tail) = task
  end subroutine push

  ! The next task to worker w, or w waits idle while the queue is empty.
  subroutine give(w)
    integer, intent(in) :: w
    integer :: ierr
    if (head > tail) then
      holding(w) = idle
      return
    end if
    holding(w) = queue(head)
    head = head + 1
    call MPI_Send(holding(w), 1, MPI_INTEGER, w, 1, MPI_COMM_WORLD, ierr)
  end subroutine give

  subroutine stop_worker(w)
    integer, intent(in) :: w
    integer :: ierr
    call MPI_Send(0, 1, MPI_INTEGER, w, 1, MPI_COMM_WORLD, ierr)
  end subroutine stop_worker

  ! Acknowledges the failures seen so far; the tasks of newly dead workers
  ! go back into the queue.
  subroutine requeue_failed()
    integer :: failed, wgroup, n, i, ierr
    integer :: idx(64), wranks(64)
    call MPIX_Comm_failure_ack(MPI_COMM_WORLD, ierr)
    call expect(ierr == MPI_SUCCESS, 'failure_ack')
    call MPIX_Comm_failure_get_acked(MPI_COMM_WORLD, failed, ierr)
    call expect(ierr == MPI_SUCCESS, 'failure_get_acked')
    call MPI_Group_size(failed, n, ierr)
    call MPI_Comm_group(MPI_COMM_WORLD, wgroup, ierr)
    idx(1:n) = [(i, i = 0, n - 1)]
    call MPI_Group_translate_ranks(failed, n, idx, wgroup, wranks, ierr)
    do i = 1, n
      if (.not. dead(wranks(i))) then
        dead(wranks(i)) = .true.
        if (holding(wranks(i)) > 0) call push(holding(wranks(i)))
        holding(wranks(i)) = 0
      end if
    end do
    call MPI_Group_free(failed, ierr)
    call MPI_Group_free(wgroup, ierr)
  end subroutine requeue_failed

  subroutine worker()
    integer :: task, msg(2), received, ierr
    received = 0
    do
      call MPI_Recv(task, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
      call expect(ierr == MPI_SUCCESS, 'worker receive')
      if (task == 0) exit
      received = received + 1
      if (rank == victim .and. received == 1) call kill_self()
      msg = [task, task * task]
      call MPI_Send(msg, 2, MPI_INTEGER, 0, 2, MPI_COMM_WORLD, ierr)
    end do
  end subroutine worker

  ! Dies here, for real: SIGKILL through C's raise, not an orderly exit.
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
end module bag

program bag_of_tasks
  use bag
  implicit none
  integer :: ierr
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  if (size <= victim) then
    print *, 'bag_of_tasks needs more than', victim, 'ranks'
    error stop 1
  end if
  if (rank == 0) then
    call master()
  else
    call worker()
  end if
  call MPI_Finalize(ierr)
end program bag_of_tasks
