// What the web view's tests share: a daemon with every VM service and vm/web
// (serving on a port of its own choosing), and where it serves.
#pragma once

#include "http_client.hpp"
#include "it_support.hpp"

#include <memory>
#include <string>
#include <vector>

namespace harness::web_test {

using namespace std::chrono_literals;

// A daemon with every VM service and vm/web; env adds HARNESS_WEB_* (give
// HARNESS_WEB_PORT=0 to serve on a free port).
std::unique_ptr<test::Daemon> start_daemon(std::vector<std::string> env);

// The web view's URL from `vm/web status` ("" when it is off).
std::string web_url(const test::Daemon &d);
// Its port (REQUIREs that it serves).
std::uint16_t web_port(const test::Daemon &d);

}  // namespace harness::web_test
