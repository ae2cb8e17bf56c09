// Port names of MPI_Open_port and who this process is to another one
// (its job and world rank), for accept/connect and MPI_Comm_join.
//
// A port name is text: "ftmpi-port:<job>:<world rank of the opener>:<port
// number>@<host>:<tcp port>". Processes of the opener's job reach the port
// through their own connections (the world rank); a process of another job
// connects to the address after '@', the port's own listening socket
// (dynamic/foreign.cpp). A process without a network (a singleton started
// without a launcher) leaves the address out.
#pragma once

#include <optional>
#include <string>

namespace ftmpi::dynamic {

struct PortName {
    std::string job;
    int world = -1;
    int number = -1;
    std::string address;  // "host:port" of the port's socket, or ""
};

// This process's job: FTMPI_JOB-FTMPI_JOB_KEY (the key tells apart jobs of
// one id in two VMs), or "pid<n>" for a process started without a launcher
// (a singleton is a job of its own).
const std::string &job_id();

std::string format_port(const PortName &);
// Nothing for text that is not a port name of this library.
std::optional<PortName> parse_port(const char *text);

}  // namespace ftmpi::dynamic
