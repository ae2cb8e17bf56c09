// A job's failure and recovery timeline (cominfo --history), merged from
// the event logs in its ranks' records: each failure with when and by whom
// it was detected, each revoke, and each recovery with its mode, start, end
// and duration (docs/cominfo.md, "cominfo --history --json").
#pragma once

#include <harness/vmview/job_records.hpp>

#include <nlohmann/json.hpp>

namespace harness::cominfo {

nlohmann::json job_history(const JobRecords &records);

}  // namespace harness::cominfo
