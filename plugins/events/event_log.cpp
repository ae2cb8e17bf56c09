#include "event_log.hpp"

#include "vm_service_kit/active_call.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace harness::vmsvc {

namespace {

constexpr int kSeqDigits = 20;

Bytes encode_value(const std::string &token, std::span<const std::uint8_t> payload) {
    Packer p;
    p.str(token).bytes(payload);
    return p.take();
}

// The seq of a record key of this topic, or 0 when the key is not one.
std::int64_t seq_of(const std::string &prefix, const std::string &key) {
    if (!key.starts_with(prefix) || key.size() != prefix.size() + kSeqDigits) return 0;
    std::int64_t seq = 0;
    const char *first = key.data() + prefix.size();
    const char *last = key.data() + key.size();
    auto [ptr, ec] = std::from_chars(first, last, seq);
    if (ec != std::errc() || ptr != last || seq <= 0) return 0;
    return seq;
}

Error role_changed() {
    return make_error(HARNESS_ERR_BUSY, std::string(kNotActive) + " (the role changed hands)");
}

}  // namespace

std::string EventLog::key_of(const std::string &topic, std::int64_t seq) {
    char digits[kSeqDigits + 1];
    std::snprintf(digits, sizeof digits, "%020lld", static_cast<long long>(seq));
    return key_prefix(topic) + digits;
}

EventLog::EventLog(RecordStore &store, EventLogLimits limits) : store_(store), limits_(limits) {
    trimmer_ = std::thread([this] { trimmer_loop(); });
}

EventLog::~EventLog() {
    stop();
    if (trimmer_.joinable()) trimmer_.join();
}

void EventLog::stop() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    published_.notify_all();
    trim_wanted_.notify_all();
}

void EventLog::wake_all() {
    {
        std::lock_guard lock(mutex_);
        ++wake_generation_;
    }
    published_.notify_all();
}

EventLog::Topic &EventLog::topic_of(const std::string &name, std::int64_t term) {
    std::lock_guard lock(mutex_);
    if (term != term_) {
        // A new term: whatever we cached may have been overtaken by another
        // active instance's writes; reload each topic on first use.
        for (auto &[n, t] : topics_) retired_.push_back(std::move(t));
        topics_.clear();
        term_ = term;
        ++wake_generation_;
        published_.notify_all();
    }
    auto &slot = topics_[name];
    if (!slot) slot = std::make_unique<Topic>();
    return *slot;
}

Result<void> EventLog::load(const std::string &name, Topic &t, std::int64_t term) {
    const std::string prefix = key_prefix(name);
    auto records = store_.scan(prefix, true);
    if (!records) return records.error();
    std::vector<Cached> found;
    found.reserve(records->size());
    std::vector<std::string> garbage;
    for (auto &r : *records) {
        std::int64_t seq = seq_of(prefix, r.key);
        Unpacker u(r.value);
        Cached c{seq, {}, {}};
        if (seq == 0 || !u.str(c.token) || !u.bytes(c.payload) || !u.done()) continue;  // not ours; leave it
        found.push_back(std::move(c));
    }
    std::sort(found.begin(), found.end(), [](const Cached &a, const Cached &b) { return a.seq < b.seq; });
    // The contiguous run ending at the newest event is the topic; anything
    // older than a hole (an interrupted trim) or beyond retention is deleted.
    std::size_t begin = found.size();
    while (begin > 0 && found.size() - begin < limits_.retention &&
           (begin == found.size() || found[begin - 1].seq + 1 == found[begin].seq))
        --begin;
    for (std::size_t i = 0; i < begin; ++i) garbage.push_back(key_of(name, found[i].seq));

    std::lock_guard lock(mutex_);
    if (term != term_) return role_changed();
    t.events.clear();
    t.tokens.clear();
    t.last_seq = found.empty() ? 0 : found.back().seq;
    for (std::size_t i = begin; i < found.size(); ++i) {
        if (!found[i].token.empty()) t.tokens[found[i].token] = found[i].seq;
        t.events.push_back(std::move(found[i]));
    }
    t.loaded = true;
    if (!garbage.empty()) {
        trim_queue_.insert(trim_queue_.end(), garbage.begin(), garbage.end());
        trim_wanted_.notify_one();
    }
    return {};
}

void EventLog::append(const std::string &name, Topic &t, Cached c) {
    t.last_seq = c.seq;
    if (!c.token.empty()) t.tokens[c.token] = c.seq;
    t.events.push_back(std::move(c));
    // Trim in batches of a quarter of the retention, so the deque is not
    // shifted on every publish.
    if (t.events.size() > limits_.retention + limits_.retention / 4) {
        while (t.events.size() > limits_.retention) {
            auto &old = t.events.front();
            if (!old.token.empty()) t.tokens.erase(old.token);
            trim_queue_.push_back(key_of(name, old.seq));
            t.events.pop_front();
        }
        trim_wanted_.notify_one();
    }
    published_.notify_all();
}

Result<std::int64_t> EventLog::publish(const std::string &topic, std::span<const std::uint8_t> payload,
                                       const std::string &token, std::int64_t term) {
    if (payload.size() > limits_.max_payload)
        return make_error(HARNESS_ERR_TOO_LARGE,
                          "event payload of " + std::to_string(payload.size()) + " bytes is over the limit of " +
                              std::to_string(limits_.max_payload));
    Topic &t = topic_of(topic, term);
    std::lock_guard writing(t.writer);
    bool loaded = false;
    {
        std::lock_guard lock(mutex_);
        if (term != term_) return role_changed();
        loaded = t.loaded;
    }
    if (!loaded) {
        auto l = load(topic, t, term);
        if (!l) return l.error();
    }
    const Bytes value = encode_value(token, payload);
    // Each lost round teaches us one more event written by someone else
    // (progress, so no limit is needed for correctness); the bound only
    // stops a writer that never wins against a much faster one.
    for (int round = 0; round < 100000; ++round) {
        std::int64_t seq = 0;
        {
            std::lock_guard lock(mutex_);
            if (term != term_) return role_changed();
            if (!token.empty()) {
                auto it = t.tokens.find(token);
                if (it != t.tokens.end()) return it->second;  // stored by an earlier attempt
            }
            seq = t.last_seq + 1;
        }
        const std::string key = key_of(topic, seq);
        auto c = store_.cas(key, 0, value);
        // An error leaves it open whether the slot was written; the next
        // attempt's CAS finds out, and the token recognises our own event.
        if (!c) return c.error();
        if (c->ok) {
            std::lock_guard lock(mutex_);
            append(topic, t, Cached{seq, Bytes(payload.begin(), payload.end()), token});
            return seq;
        }
        // Someone else wrote this slot (an earlier attempt of ours whose reply
        // was lost, or another instance that also believed it was active).
        auto existing = store_.get(key, true);
        if (!existing) return existing.error();
        if (!*existing) return make_error(HARNESS_ERR_BUSY, "event slot " + key + " vanished; retry");
        Cached other{seq, {}, {}};
        Unpacker u((*existing)->value);
        if (!u.str(other.token) || !u.bytes(other.payload))
            return make_error(HARNESS_ERR_INTERNAL, "event record " + key + " is malformed");
        std::lock_guard lock(mutex_);
        if (term != term_) return role_changed();
        if (t.last_seq + 1 == seq) append(topic, t, std::move(other));
    }
    return make_error(HARNESS_ERR_BUSY, "topic " + topic + ": other writers keep taking the next slot");
}

Result<std::vector<Event>> EventLog::fetch(const std::string &topic, std::int64_t after_seq, std::int64_t wait_ms,
                                           std::int64_t max, std::int64_t term) {
    if (after_seq < 0) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "after_seq must be >= 0");
    if (wait_ms < 0 || wait_ms > limits_.max_wait_ms)
        return make_error(HARNESS_ERR_INVALID_ARGUMENT, "wait_ms must be 0.." + std::to_string(limits_.max_wait_ms));
    if (max < 1) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "max must be >= 1");
    std::size_t limit = std::min<std::size_t>(static_cast<std::size_t>(max), limits_.max_fetch_events);
    auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);

    Topic &t = topic_of(topic, term);
    bool loaded = false;
    {
        std::lock_guard lock(mutex_);
        loaded = t.loaded;
    }
    if (!loaded) {
        std::lock_guard writing(t.writer);
        bool still_unloaded = false;
        {
            std::lock_guard lock(mutex_);
            still_unloaded = !t.loaded;
        }
        if (still_unloaded) {
            auto l = load(topic, t, term);
            if (!l) return l.error();
        }
    }

    std::unique_lock lock(mutex_);
    auto generation = wake_generation_;
    published_.wait_until(lock, deadline, [&] {
        return stopping_ || term_ != term || wake_generation_ != generation || t.last_seq > after_seq;
    });
    if (term_ != term) return role_changed();
    std::vector<Event> out;
    // Woken because this instance lost its role: send the fetcher to the new one.
    if (t.last_seq <= after_seq && wake_generation_ != generation && !stopping_) return role_changed();
    if (t.events.empty() || t.last_seq <= after_seq) return out;
    std::int64_t first = t.events.front().seq;
    std::size_t index = after_seq + 1 <= first ? 0 : static_cast<std::size_t>(after_seq + 1 - first);
    std::size_t bytes = 0;
    for (; index < t.events.size() && out.size() < limit; ++index) {
        const auto &e = t.events[index];
        if (!out.empty() && bytes + e.payload.size() > limits_.max_fetch_bytes) break;
        bytes += e.payload.size();
        out.push_back(Event{e.seq, e.payload});
    }
    return out;
}

void EventLog::trimmer_loop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        trim_wanted_.wait(lock, [&] { return stopping_ || !trim_queue_.empty(); });
        if (stopping_) return;  // leftovers are found and deleted by the next load
        std::string key = std::move(trim_queue_.front());
        trim_queue_.pop_front();
        lock.unlock();
        auto r = store_.del(key);
        lock.lock();
        if (!r) {
            // The DRD is unavailable for the moment: keep the key and give it
            // time rather than spinning on it.
            trim_queue_.push_back(std::move(key));
            trim_wanted_.wait_for(lock, std::chrono::milliseconds(200), [&] { return stopping_; });
        }
    }
}

}  // namespace harness::vmsvc
