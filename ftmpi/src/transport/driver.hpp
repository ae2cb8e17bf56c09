// One opened comm driver: its ops table (ftmpi/transport.h) and its state.
//
// The router checks a table once (check_ops) before it opens the driver,
// then calls its slots directly.
#pragma once

#include "ftmpi/transport.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace ftmpi::transport {

struct Driver {
    const ftmpi_transport_ops *ops = nullptr;
    ftmpi_transport *state = nullptr;
    std::string name;
    int fd = -1;           // wait_fd(), registered in the router's epoll; -1: polled
    bool carries = false;  // some peer's frames go through this driver
};

// Checks the table before anything is called: version and the slots every
// driver must have. Returns an empty string or what is wrong.
std::string check_ops(const ftmpi_transport_ops *ops);

}  // namespace ftmpi::transport
