// hostinfo's table for people (the JSON document is the library's to_json,
// format in tools/hostinfo/README.md).
#pragma once

#include <harness/vmview/vm_state.hpp>

#include <ostream>

namespace harness::hostinfo {

void print_text(const VmState &st, std::ostream &out);

}  // namespace harness::hostinfo
