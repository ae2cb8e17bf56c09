! A user's fixed-form program with mpif.h, compiled by mpif77.
      PROGRAM HELLO77
      INCLUDE 'mpif.h'
      INTEGER IERR, RANK, SIZE, TOKEN
      CALL MPI_INIT(IERR)
      CALL MPI_COMM_RANK(MPI_COMM_WORLD, RANK, IERR)
      CALL MPI_COMM_SIZE(MPI_COMM_WORLD, SIZE, IERR)
      TOKEN = RANK + 1
      CALL MPI_ALLREDUCE(MPI_IN_PLACE, TOKEN, 1, MPI_INTEGER, MPI_SUM,
     &                   MPI_COMM_WORLD, IERR)
      IF (RANK .EQ. 0) PRINT *, 'hello from Fortran 77:', SIZE,
     &   'ranks, token', TOKEN
      CALL MPI_FINALIZE(IERR)
      END
