/* ftmpi/comm_shm.h — the shared-memory comm driver's ops table.
 *
 * The driver is linked statically (ftmpi_comm_shm_driver) into tests, and
 * built as the application-level plugin comm/shm, which hands the same table
 * out through its descriptor. Pure C. */
#ifndef FTMPI_COMM_SHM_H
#define FTMPI_COMM_SHM_H

#include <ftmpi/transport.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The driver's ops table (name "shm"); never NULL. */
const ftmpi_transport_ops *ftmpi_comm_shm_ops(void);

#ifdef __cplusplus
}
#endif

#endif /* FTMPI_COMM_SHM_H */
