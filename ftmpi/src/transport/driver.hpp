// One opened comm driver: its ops table (ftmpi/transport.h) and its state.
//
// The router calls drivers only through this, so a slot missing from an
// older driver's table (struct_size too small) answers "unsupported" here
// instead of being read past the table's end.
#pragma once

#include "ftmpi/transport.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace ftmpi::transport {

// True when the table is long enough to hold `slot` and the slot is set.
#define FTMPI_OPS_HAS(ops, slot)                                                                  \
    ((ops) != nullptr && offsetof(ftmpi_transport_ops, slot) + sizeof((ops)->slot) <= (ops)->struct_size && \
     (ops)->slot != nullptr)

struct Driver {
    const ftmpi_transport_ops *ops = nullptr;
    ftmpi_transport *state = nullptr;
    std::string name;
    int fd = -1;  // wait_fd(), registered in the router's epoll; -1: polled
    bool carries = false;  // some peer's frames go through this driver
};

// Checks the table before anything is called: version and the slots every
// driver must have. Returns an empty string or what is wrong.
std::string check_ops(const ftmpi_transport_ops *ops);

}  // namespace ftmpi::transport
