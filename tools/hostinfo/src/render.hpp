// hostinfo's two outputs: a table for people and one JSON document for
// scripts (the format is in tools/hostinfo/README.md).
#pragma once

#include "vm_state.hpp"

#include <nlohmann/json.hpp>

#include <ostream>

namespace harness::hostinfo {

nlohmann::json to_json(const VmState &st);
void print_text(const VmState &st, std::ostream &out);

}  // namespace harness::hostinfo
