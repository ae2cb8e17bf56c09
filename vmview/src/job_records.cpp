#include <harness/vmview/job_records.hpp>

#include <harness/common/pack.hpp>
#include <harness/hlib/busy_retry.hpp>

namespace harness::cominfo {

namespace {

const ComponentName kDrd{"vm", "drd"};

// "ftmpi/<job>/cominfo/<rank>" → job and rank; false for other keys
// (the wire-up's contacts live under ftmpi/<job>/contact/).
bool parse_key(const std::string &key, std::string *job, int *rank) {
    const std::string head = "ftmpi/", mid = "/cominfo/";
    if (key.rfind(head, 0) != 0) return false;
    const auto at = key.find(mid, head.size());
    if (at == std::string::npos || at == head.size()) return false;
    const std::string tail = key.substr(at + mid.size());
    if (tail.empty() || tail.size() > 9 || tail.find_first_not_of("0123456789") != std::string::npos) return false;
    *job = key.substr(head.size(), at - head.size());
    *rank = std::stoi(tail);
    return true;
}

}  // namespace

Result<std::map<std::string, JobRecords>> read_jobs(hlib::VirtualMachine &vm, const std::string &job,
                                                    std::chrono::milliseconds timeout) {
    Packer args;
    args.str(job.empty() ? std::string("ftmpi/") : "ftmpi/" + job + "/cominfo/").boolean(false);
    auto reply = hlib::call_while_busy(vm.local(), kDrd, "scan", args.view(), hlib::deadline_in(timeout));
    if (!reply) {
        if (reply.error().status == HARNESS_ERR_NOT_FOUND)
            return make_error(HARNESS_ERR_NOT_FOUND,
                              "the daemon asked has no vm/drd, where jobs keep their records (" +
                                  reply.error().message + ")");
        return reply.error();
    }
    Unpacker u(*reply);
    std::int64_t n = 0;
    if (!u.i64(n) || n < 0) return make_error(HARNESS_ERR_PROTOCOL, "malformed drd scan reply");
    std::map<std::string, JobRecords> jobs;
    for (std::int64_t i = 0; i < n; ++i) {
        std::string key;
        Bytes value;
        std::int64_t version = 0;
        if (!u.str(key) || !u.bytes(value) || !u.i64(version))
            return make_error(HARNESS_ERR_PROTOCOL, "malformed drd scan reply");
        std::string id;
        int rank = 0;
        if (!parse_key(key, &id, &rank)) continue;
        JobRecords &j = jobs[id];
        j.job = id;
        auto record = nlohmann::json::parse(value.begin(), value.end(), nullptr, false);
        if (record.is_discarded() || !record.is_object() || record.value("format", 0) != 1) {
            j.notes.push_back("rank " + std::to_string(rank) + ": record in an unknown format");
            continue;
        }
        const std::int64_t started = record.value("started_ms", std::int64_t{0});
        if (j.ranks.empty() || started < j.started_ms) j.started_ms = started;
        j.ranks[rank] = std::move(record);
    }
    return jobs;
}

Result<JobRecords> pick_job(std::map<std::string, JobRecords> jobs, const std::string &job) {
    if (!job.empty()) {
        auto it = jobs.find(job);
        if (it == jobs.end() || it->second.ranks.empty())
            return make_error(HARNESS_ERR_NOT_FOUND,
                              "no records of job " + job +
                                  " (its ranks report only when run through the VM with "
                                  "vm/drd, and FTMPI_COMINFO is not 0)");
        return std::move(it->second);
    }
    const JobRecords *latest = nullptr;
    for (const auto &[id, j] : jobs)
        if (!j.ranks.empty() && (!latest || j.started_ms > latest->started_ms)) latest = &j;
    if (!latest) return make_error(HARNESS_ERR_NOT_FOUND, "no job has reported to this VM yet");
    return *latest;
}

}  // namespace harness::cominfo
