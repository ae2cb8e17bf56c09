// The built-in TCP comm driver: transport::Tcp behind the C ops table of
// ftmpi/transport.h, so the router treats it like any plugin driver.
#pragma once

#include "ftmpi/transport.h"

namespace ftmpi::transport {

const ftmpi_transport_ops *tcp_ops();

}  // namespace ftmpi::transport
