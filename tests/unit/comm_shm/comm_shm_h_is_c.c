/* ftmpi/comm_shm.h (and ftmpi/transport.h under it) compile alone as pure
 * C11, and the table is reachable from C. */
#include <ftmpi/comm_shm.h>

#include <stdio.h>
#include <string.h>

int main(void) {
    const ftmpi_transport_ops *ops = ftmpi_comm_shm_ops();
    if (!ops || ops->struct_size != sizeof *ops || strcmp(ops->name, "shm") != 0) {
        fprintf(stderr, "bad ops table\n");
        return 1;
    }
    return 0;
}
