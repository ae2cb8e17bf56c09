#include "p2p/failure_record.hpp"

namespace ftmpi::p2p {

void FailureRecord::reset(int peers) {
    failed_.assign(peers, 0);
    suspected_.assign(peers, 0);
    open_ = false;
}

void FailureRecord::grow(int peers) {
    if (peers <= static_cast<int>(failed_.size())) return;
    failed_.resize(static_cast<size_t>(peers), 0);
    suspected_.resize(static_cast<size_t>(peers), 0);
}

void FailureRecord::mark_failed(int world, std::string why) {
    failed_[world] = 1;
    suspected_[world] = 0;
    failure_epoch_.fetch_add(1, std::memory_order_acq_rel);
    reports_.push_back({world, false, std::move(why)});
}

void FailureRecord::mark_suspected(int world) {
    if (suspected_[world]) return;
    suspected_[world] = 1;
    reports_.push_back({world, true, {}});
}

void FailureRecord::renew(int world) {
    failed_[world] = 0;
    suspected_[world] = 0;
}

void FailureRecord::inject(int world) {
    std::lock_guard<std::mutex> g(inject_mu_);
    injected_.push_back(world);
    injected_pending_.store(true, std::memory_order_release);
}

std::vector<int> FailureRecord::take_injected() {
    std::vector<int> worlds;
    std::lock_guard<std::mutex> g(inject_mu_);
    worlds.swap(injected_);
    injected_pending_.store(false, std::memory_order_release);
    return worlds;
}

bool FailureRecord::begin_reporting() {
    if (!open_ || reporting_) return false;
    reporting_ = true;
    return true;
}

std::vector<FailureRecord::Report> FailureRecord::take_reports() {
    std::vector<Report> batch;
    batch.swap(reports_);
    return batch;
}

}  // namespace ftmpi::p2p
