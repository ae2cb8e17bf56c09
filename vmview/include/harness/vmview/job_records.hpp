// The rank records of MPI jobs, read from the DRD: each rank of a job run
// under a VM keeps ftmpi/<job>/cominfo/<rank> (a JSON document, format in
// docs/cominfo.md) up to date; cominfo reads them through one daemon.
#pragma once

#include <harness/hlib/hlib.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <string>

namespace harness::cominfo {

struct JobRecords {
    std::string job;
    std::map<int, nlohmann::json> ranks;  // world rank → its latest record
    std::int64_t started_ms = 0;          // the earliest MPI_Init among them
    std::vector<std::string> notes;       // records that could not be read
};

// Every job with records (job id → records); `job` non-empty reads that
// job only.
Result<std::map<std::string, JobRecords>> read_jobs(hlib::VirtualMachine &vm, const std::string &job,
                                                    std::chrono::milliseconds timeout);

// The job asked for, or without one the most recently started job;
// an error naming what exists when there is none.
Result<JobRecords> pick_job(std::map<std::string, JobRecords> jobs, const std::string &job);

}  // namespace harness::cominfo
