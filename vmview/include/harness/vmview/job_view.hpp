// One job as cominfo shows it, merged from its ranks' records: each rank's
// own state, and one row per communicator with one cell per member, the
// states being what the live members report (docs/cominfo.md, "cominfo
// --json"). The result is the --json document; the table is drawn from it.
#pragma once

#include <harness/vmview/job_records.hpp>

#include <nlohmann/json.hpp>

namespace harness::cominfo {

// Severity of states, for merging the views of several ranks (the worst wins).
int comm_state_rank(const std::string &state);
int proc_state_rank(const std::string &state);

nlohmann::json job_view(const JobRecords &records);

}  // namespace harness::cominfo
