// MPI_Comm_accept / MPI_Comm_connect between two jobs (two launches).
//
// A process of another job has no world rank here. Each side numbers the
// other side's processes after every world rank its group knows (the
// group's largest known_world_ranks: an "alias base"), so the two groups
// keep their own numberings and frames are told apart by their connection
// (transport/tcp_foreign.cpp). The roots meet on the port's own socket
// (ports.hpp): the connecting root sends its group (world ranks and TCP
// contact records) and its alias base; the accepting root answers with
// its group, its alias base and the bridge tag once every member of its
// group expects the connections. Every process of the connecting group
// then connects to every process of the accepting group, and both groups
// build the intercommunicator with comm::connect_groups, each side's
// group given to the other in the other's numbering.
//
// Failures: a process of the other job that dies breaks its connections,
// which is its failure here at once (p2p/foreign.cpp): the VM of this job
// does not know it.
#pragma once

#include "mpi.h"

#include <string>
#include <vector>

namespace ftmpi::dynamic {

// What the connecting root asked for, read by the accepting root.
struct ForeignOffer {
    int fd = -1;              // the connection on the port's socket (accepting root only)
    int root = -1;            // the connecting group's root, a rank of its comm
    int count = 0;            // the connecting group's size
    int base = -1;            // the number the connecting job gives the accepting comm's rank 0
    std::string job;          // the connecting job (accepting root only)
    std::vector<int> worlds;  // the connecting group's world ranks in its job (accepting root only)
};

// The accepting root: reads the offer from a connection taken from a port's
// socket; false (fd closed) when it is not one.
bool read_offer(int fd, ForeignOffer *out);

// Every member of comm, once its root announced the connection. The
// accepting side: `offer` as read by its root (the fd at the root only),
// `tag` the bridge tag its root chose. The connecting side: `address` the
// port's socket (at the root only). *newcomm: the intercommunicator.
int accept_foreign(MPI_Comm comm, int root, const ForeignOffer &offer, int tag, MPI_Comm *newcomm);
int connect_foreign(MPI_Comm comm, int root, const std::string &address, MPI_Comm *newcomm);

}  // namespace ftmpi::dynamic
