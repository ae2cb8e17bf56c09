! Fixed-form Fortran 77 with mpif.h: point-to-point. A ring of
! blocking sends with status checks (MPI_SOURCE, MPI_TAG,
! MPI_GET_COUNT), SENDRECV, non-blocking exchange with WAITALL and
! WAITANY (1-based index), probe, persistent requests, WAITSOME
! (1-based indexes), MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE.
      PROGRAM P2P
      IMPLICIT NONE
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, SIZE, NEXT, PREV, I, COUNT, IDX, N
      INTEGER STATUS(MPI_STATUS_SIZE), STATS(MPI_STATUS_SIZE, 4)
      INTEGER REQS(4), SBUF(10), RBUF(10), VAL(1), IDXS(4), OUTCNT
      INTEGER SEEN
      DOUBLE PRECISION D(3), DR(3)
      LOGICAL FLAG

      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, SIZE, IERR)
      NEXT = MOD(RANK + 1, SIZE)
      PREV = MOD(RANK + SIZE - 1, SIZE)

! Ring: rank 0 starts, each adds its rank; 7 integers, tag 42.
      DO I = 1, 10
         SBUF(I) = 0
         RBUF(I) = -1
      END DO
      IF (RANK .EQ. 0) THEN
         CALL MPI_SEND(SBUF, 7, MPI_INTEGER, NEXT, 42, MPI_COMM_WORLD,
     &                 IERR)
         CALL MPI_RECV(RBUF, 10, MPI_INTEGER, MPI_ANY_SOURCE,
     &                 MPI_ANY_TAG, MPI_COMM_WORLD, STATUS, IERR)
      ELSE
         CALL MPI_RECV(RBUF, 10, MPI_INTEGER, MPI_ANY_SOURCE,
     &                 MPI_ANY_TAG, MPI_COMM_WORLD, STATUS, IERR)
         DO I = 1, 7
            SBUF(I) = RBUF(I) + RANK
         END DO
         CALL MPI_SEND(SBUF, 7, MPI_INTEGER, NEXT, 42, MPI_COMM_WORLD,
     &                 IERR)
      END IF
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'ring ierr')
      CALL CHECK(STATUS(MPI_SOURCE) .EQ. PREV, 'ring MPI_SOURCE')
      CALL CHECK(STATUS(MPI_TAG) .EQ. 42, 'ring MPI_TAG')
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, COUNT, IERR)
      CALL CHECK(COUNT .EQ. 7, 'ring get_count')
      IF (RANK .EQ. 0) THEN
         CALL CHECK(RBUF(7) .EQ. SIZE * (SIZE - 1) / 2, 'ring sum')
         CALL CHECK(RBUF(8) .EQ. -1, 'ring: no write past count')
      END IF

! SENDRECV of doubles around the ring.
      DO I = 1, 3
         D(I) = RANK * 10.0D0 + I
      END DO
      CALL MPI_SENDRECV(D, 3, MPI_DOUBLE_PRECISION, NEXT, 5,
     &                  DR, 3, MPI_DOUBLE_PRECISION, PREV, 5,
     &                  MPI_COMM_WORLD, STATUS, IERR)
      CALL CHECK(DR(2) .EQ. PREV * 10.0D0 + 2, 'sendrecv data')
      CALL MPI_GET_COUNT(STATUS, MPI_DOUBLE_PRECISION, COUNT, IERR)
      CALL CHECK(COUNT .EQ. 3, 'sendrecv count')

! Non-blocking both ways, WAITALL with statuses.
      CALL MPI_IRECV(RBUF(1), 1, MPI_INTEGER, PREV, 7, MPI_COMM_WORLD,
     &               REQS(1), IERR)
      CALL MPI_IRECV(RBUF(2), 1, MPI_INTEGER, NEXT, 8, MPI_COMM_WORLD,
     &               REQS(2), IERR)
      SBUF(1) = 100 + RANK
      SBUF(2) = 200 + RANK
      CALL MPI_ISEND(SBUF(1), 1, MPI_INTEGER, NEXT, 7, MPI_COMM_WORLD,
     &               REQS(3), IERR)
      CALL MPI_ISEND(SBUF(2), 1, MPI_INTEGER, PREV, 8, MPI_COMM_WORLD,
     &               REQS(4), IERR)
      CALL MPI_WAITALL(4, REQS, STATS, IERR)
      CALL CHECK(IERR .EQ. MPI_SUCCESS, 'waitall')
      CALL CHECK(RBUF(1) .EQ. 100 + PREV, 'irecv from prev')
      CALL CHECK(RBUF(2) .EQ. 200 + NEXT, 'irecv from next')
      CALL CHECK(STATS(MPI_SOURCE, 1) .EQ. PREV, 'waitall status 1')
      CALL CHECK(STATS(MPI_TAG, 2) .EQ. 8, 'waitall status 2 tag')
      DO I = 1, 4
         CALL CHECK(REQS(I) .EQ. MPI_REQUEST_NULL, 'requests freed')
      END DO

! WAITANY: one receive among null requests; index is 1-based.
      REQS(1) = MPI_REQUEST_NULL
      REQS(3) = MPI_REQUEST_NULL
      CALL MPI_IRECV(VAL, 1, MPI_INTEGER, PREV, 9, MPI_COMM_WORLD,
     &               REQS(2), IERR)
      SBUF(5) = RANK
      CALL MPI_SEND(SBUF(5), 1, MPI_INTEGER, NEXT, 9, MPI_COMM_WORLD,
     &              IERR)
      CALL MPI_WAITANY(3, REQS, IDX, STATUS, IERR)
      CALL CHECK(IDX .EQ. 2, 'waitany index is 1-based')
      CALL CHECK(VAL(1) .EQ. PREV, 'waitany data')
      CALL MPI_WAITANY(3, REQS, IDX, MPI_STATUS_IGNORE, IERR)
      CALL CHECK(IDX .EQ. MPI_UNDEFINED, 'waitany: all null')

! PROBE then RECV with MPI_STATUS_IGNORE.
      CALL MPI_SEND(SBUF, 4, MPI_INTEGER, NEXT, 11, MPI_COMM_WORLD,
     &              IERR)
      CALL MPI_PROBE(PREV, 11, MPI_COMM_WORLD, STATUS, IERR)
      CALL MPI_GET_COUNT(STATUS, MPI_INTEGER, N, IERR)
      CALL CHECK(N .EQ. 4, 'probe count')
      CALL MPI_IPROBE(PREV, 11, MPI_COMM_WORLD, FLAG, STATUS, IERR)
      CALL CHECK(FLAG, 'iprobe flag is .TRUE.')
      CALL MPI_RECV(RBUF, N, MPI_INTEGER, PREV, 11, MPI_COMM_WORLD,
     &              MPI_STATUS_IGNORE, IERR)
      CALL MPI_IPROBE(PREV, 11, MPI_COMM_WORLD, FLAG, STATUS, IERR)
      CALL CHECK(.NOT. FLAG, 'iprobe flag is .FALSE.')

! Persistent requests, twice, with MPI_STATUSES_IGNORE.
      CALL MPI_RECV_INIT(VAL, 1, MPI_INTEGER, PREV, 12, MPI_COMM_WORLD,
     &                   REQS(1), IERR)
      CALL MPI_SEND_INIT(SBUF(3), 1, MPI_INTEGER, NEXT, 12,
     &                   MPI_COMM_WORLD, REQS(2), IERR)
      DO I = 1, 2
         SBUF(3) = RANK * 1000 + I
         CALL MPI_STARTALL(2, REQS, IERR)
         CALL MPI_WAITALL(2, REQS, MPI_STATUSES_IGNORE, IERR)
         CALL CHECK(VAL(1) .EQ. PREV * 1000 + I, 'persistent data')
         CALL CHECK(REQS(1) .NE. MPI_REQUEST_NULL, 'persistent kept')
      END DO
      CALL MPI_REQUEST_FREE(REQS(1), IERR)
      CALL MPI_REQUEST_FREE(REQS(2), IERR)
      CALL CHECK(REQS(1) .EQ. MPI_REQUEST_NULL, 'request_free')

! WAITSOME over two receives until both are in; indexes are 1 or 2.
      CALL MPI_IRECV(RBUF(1), 1, MPI_INTEGER, PREV, 13, MPI_COMM_WORLD,
     &               REQS(1), IERR)
      CALL MPI_IRECV(RBUF(2), 1, MPI_INTEGER, NEXT, 14, MPI_COMM_WORLD,
     &               REQS(2), IERR)
      SBUF(1) = RANK
      CALL MPI_SEND(SBUF(1), 1, MPI_INTEGER, NEXT, 13, MPI_COMM_WORLD,
     &              IERR)
      CALL MPI_SEND(SBUF(1), 1, MPI_INTEGER, PREV, 14, MPI_COMM_WORLD,
     &              IERR)
      SEEN = 0
      DO WHILE (SEEN .LT. 2)
         CALL MPI_WAITSOME(2, REQS, OUTCNT, IDXS, STATS, IERR)
         CALL CHECK(IERR .EQ. MPI_SUCCESS .AND. OUTCNT .GE. 1,
     &              'waitsome')
         DO I = 1, OUTCNT
            CALL CHECK(IDXS(I) .EQ. 1 .OR. IDXS(I) .EQ. 2,
     &                 'waitsome index is 1-based')
         END DO
         SEEN = SEEN + OUTCNT
      END DO
      CALL CHECK(RBUF(1) .EQ. PREV .AND. RBUF(2) .EQ. NEXT,
     &           'waitsome data')
      CALL MPI_WAITSOME(2, REQS, OUTCNT, IDXS, STATS, IERR)
      CALL CHECK(OUTCNT .EQ. MPI_UNDEFINED, 'waitsome: all null')

      IF (RANK .EQ. 0) PRINT *, 'p2p: ok on ', SIZE, ' ranks'
      CALL MPI_FINALIZE(IERR)
      END

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
