// Where MPI_Publish_name keeps its names.
//
// Under a HARNESS VM (HARNESS_HCORE set) whose vm/drd answers, the names
// are records of the VM's replicated database, key "mpi-name/<service>",
// value the port name: every job of the VM sees them. Without a VM (or with
// a VM that runs no vm/drd, said once on stderr) they live in a table of
// this process only (a program may still publish and look up its own
// names). Each function returns an MPI code and writes a line on stderr for
// an error the program may not expect (an unreachable daemon).
#pragma once

#include <string>

namespace ftmpi::dynamic {

// MPI_ERR_SERVICE when the service is already published.
int publish_name(const std::string &service, const std::string &port);
// MPI_ERR_NAME when the service is not published.
int lookup_name(const std::string &service, std::string *port);
// MPI_ERR_SERVICE when the service is not published with this port.
int unpublish_name(const std::string &service, const std::string &port);

}  // namespace ftmpi::dynamic
