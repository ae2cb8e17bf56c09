#include "vm_source.hpp"

#include <harness/vmview/job_records.hpp>
#include <harness/vmview/job_view.hpp>
#include <harness/vmview/vm_state.hpp>

#include <algorithm>

namespace harness::web {

namespace {

struct Self {
    std::string address;
};

}  // namespace

Result<hlib::VirtualMachine> VmSource::connect() const {
    hlib::ConnectOptions o;
    o.root = host_->root_dir(host_->host);
    o.key_file = host_->key_file(host_->host);
    o.timeout = kTimeout;
    // Its own TCP address, so a HARNESS_HCORE in the daemon's environment
    // never sends the view to another daemon.
    Self self;
    host_->list_members(
        host_->host,
        [](void *user, const harness_member_info *m) {
            if (m && m->is_self && m->address) {
                try {
                    static_cast<Self *>(user)->address = m->address;
                } catch (...) {  // no exception crosses the C callback
                }
            }
        },
        &self);
    if (self.address.empty()) return make_error(HARNESS_ERR_INTERNAL, "this daemon is not in its own member list");
    auto where = parse_endpoint(self.address);
    if (!where) return where.error();
    o.hcore = *where;
    return hlib::VirtualMachine::connect(o);
}

Result<nlohmann::json> VmSource::vm_state(hlib::VirtualMachine &vm) {
    auto st = hostinfo::gather(vm, kTimeout);
    if (!st) return st.error();
    return hostinfo::to_json(*st);
}

Result<nlohmann::json> VmSource::jobs(hlib::VirtualMachine &vm) {
    auto all = cominfo::read_jobs(vm, "", kTimeout);
    nlohmann::json out = {{"jobs", nlohmann::json::array()}, {"total", 0}, {"notes", nlohmann::json::array()}};
    if (!all) {
        if (all.error().status != HARNESS_ERR_NOT_FOUND) return all.error();
        out["notes"].push_back(all.error().message);  // no vm/drd: no jobs to show, and why
        return out;
    }
    std::vector<const cominfo::JobRecords *> order;
    for (const auto &[id, j] : *all)
        if (!j.ranks.empty()) order.push_back(&j);
    std::sort(order.begin(), order.end(), [](const auto *a, const auto *b) {
        return a->started_ms != b->started_ms ? a->started_ms > b->started_ms : a->job > b->job;
    });
    out["total"] = order.size();
    if (order.size() > kMaxJobs) order.resize(kMaxJobs);
    for (const auto *j : order) out["jobs"].push_back(cominfo::job_view(*j));
    return out;
}

Result<nlohmann::json> VmSource::job(hlib::VirtualMachine &vm, const std::string &id) {
    auto all = cominfo::read_jobs(vm, id, kTimeout);
    if (!all) return all.error();
    auto records = cominfo::pick_job(std::move(*all), id);
    if (!records) return records.error();
    return cominfo::job_view(*records);
}

}  // namespace harness::web
