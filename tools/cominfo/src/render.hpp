// cominfo's tables for people: the job view (one row per communicator, one
// cell per member, coloured by state when `colour` is on) and the history.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <ostream>

namespace harness::cominfo {

void print_view(const nlohmann::json &view, bool colour, std::int64_t now_ms, std::ostream &out);
void print_history(const nlohmann::json &history, std::ostream &out);

}  // namespace harness::cominfo
