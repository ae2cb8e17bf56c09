! Fixed-form Fortran 77 with mpif.h: rank and size, the environment
! queries, and that the predefined handles work as compile-time
! constants. Any mismatch aborts the job (exit code nonzero).
      PROGRAM HELLO
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, SIZE, TOTAL, VER, SUBVER, RESULT, NAMELEN
      INTEGER PROVIDED
      LOGICAL FLAG
      CHARACTER*(MPI_MAX_PROCESSOR_NAME) PNAME
      DOUBLE PRECISION T0

      CALL MPI_INITIALIZED(FLAG, IERR)
      IF (FLAG) STOP 1
      CALL MPI_INIT(IERR)
      IF (IERR .NE. MPI_SUCCESS) STOP 2
      CALL MPI_INITIALIZED(FLAG, IERR)
      CALL CHECK(FLAG, 'initialized after MPI_INIT')
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, SIZE, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'comm_size')
      CALL CHECK(RANK .GE. 0 .AND. RANK .LT. SIZE, 'rank in range')
      CALL MPI_ALLREDUCE(1, TOTAL, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      CALL CHECK(TOTAL .EQ. SIZE, 'allreduce of ones is the size')
      CALL MPI_GET_VERSION(VER, SUBVER, IERR)
      CALL CHECK(VER .EQ. 3 .AND. SUBVER .EQ. 1, 'version 3.1')
      CALL MPI_COMM_COMPARE(MPI_COMM_WORLD, MPI_COMM_SELF, RESULT,
     &                      IERR)
      IF (SIZE .GT. 1) CALL CHECK(RESULT .EQ. MPI_UNEQUAL, 'unequal')
      CALL MPI_COMM_COMPARE(MPI_COMM_WORLD, MPI_COMM_WORLD, RESULT,
     &                      IERR)
      CALL CHECK(RESULT .EQ. MPI_IDENT, 'world is ident to itself')
      CALL MPI_GET_PROCESSOR_NAME(PNAME, NAMELEN, IERR)
      CALL CHECK(NAMELEN .GT. 0 .AND. PNAME(1:1) .NE. ' ',
     &           'processor name')
      IF (NAMELEN .LT. LEN(PNAME)) THEN
         CALL CHECK(PNAME(NAMELEN+1:) .EQ. ' ', 'name blank-padded')
      END IF
      CALL MPI_QUERY_THREAD(PROVIDED, IERR)
      CALL CHECK(PROVIDED .GE. MPI_THREAD_SINGLE .AND.
     &           PROVIDED .LE. MPI_THREAD_MULTIPLE, 'query_thread')
      CALL MPI_IS_THREAD_MAIN(FLAG, IERR)
      CALL CHECK(FLAG, 'is_thread_main')
      T0 = MPI_WTIME()
      CALL CHECK(T0 .GT. 0.0D0 .AND. MPI_WTICK() .GT. 0.0D0, 'wtime')
      IF (RANK .EQ. 0) PRINT *, 'hello: ', SIZE, ' ranks'
      CALL MPI_FINALIZE(IERR)
      CALL MPI_FINALIZED(FLAG, IERR)
      IF (.NOT. FLAG) STOP 3
      END

! Aborts the whole job, naming the failed check.
      SUBROUTINE CHECK(OK, WHAT)
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      LOGICAL OK
      CHARACTER*(*) WHAT
      INTEGER IERR
      IF (.NOT. OK) THEN
         PRINT *, 'FAILED: ', WHAT
         CALL MPI_ABORT(MPI_COMM_WORLD, 1, IERR)
      END IF
      END
