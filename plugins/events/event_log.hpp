// event_log.hpp — the active instance's totally ordered topics, kept in the DRD.
//
// Each event is one DRD record, `events/<topic>#<seq, 20 digits>`, value =
// pack(str token, bytes payload). A sequence number is taken by creating its
// record with CAS "must not exist", so a number is never given twice, and the
// numbers of a topic have no gaps (the next number is always last + 1).
// publish returns once that CAS is committed (acknowledged = durable).
//
// The active instance caches the retained events of each topic it touched,
// loaded with a linearizable scan when it first needs the topic in its term,
// and answers fetches from that cache; fetchers wait on a condition variable
// that publish signals, never in a sleep loop.
//
// token: a publisher's request id. A publish whose token is already among the
// retained events returns that event's seq instead of appending again, so a
// forwarded publish retried after a failover (the first attempt committed, the
// reply was lost with the dying host) is stored once.
//
// Retention: each topic keeps its newest `retention` events; older ones are
// deleted from the DRD in the background (a trimmer thread). A fetch with an
// after_seq older than what is retained gets the oldest retained events —
// the jump in seq tells the fetcher what it missed.
#pragma once

#include "vm_service_kit/record_store.hpp"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace harness::vmsvc {

struct EventLogLimits {
    std::size_t retention = 1024;           // events kept per topic
    std::size_t max_payload = 64 * 1024;    // bytes per event
    std::size_t max_fetch_events = 1024;    // per fetch reply
    std::size_t max_fetch_bytes = 4 << 20;  // payload bytes per fetch reply (at least one event)
    std::int64_t max_wait_ms = 60000;       // longest long poll
};

struct Event {
    std::int64_t seq = 0;
    Bytes payload;
};

class EventLog {
public:
    EventLog(RecordStore &store, EventLogLimits limits = {});
    ~EventLog();  // stops the trimmer

    // term: the role term the caller acts under; a new term drops the cache.
    Result<std::int64_t> publish(const std::string &topic, std::span<const std::uint8_t> payload,
                                 const std::string &token, std::int64_t term);
    // Events with seq > after_seq, in order, at most max; waits up to wait_ms
    // for the first one. Returns early (possibly empty) on stop().
    Result<std::vector<Event>> fetch(const std::string &topic, std::int64_t after_seq, std::int64_t wait_ms,
                                     std::int64_t max, std::int64_t term);
    // Wakes every waiting fetch: stop() for good (they return what they
    // have); wake_all() when the role was lost (they answer "not the active
    // instance", so forwarders retry at the new one).
    void stop();
    void wake_all();

    const EventLogLimits &limits() const { return limits_; }
    static std::string key_prefix(const std::string &topic) { return "events/" + topic + "#"; }
    static std::string key_of(const std::string &topic, std::int64_t seq);

private:
    struct Cached {
        std::int64_t seq;
        Bytes payload;
        std::string token;
    };
    struct Topic {
        std::mutex writer;                                     // one publish (CAS round trip) at a time per topic
        bool loaded = false;                                   // under mutex_
        std::int64_t last_seq = 0;                             // under mutex_
        std::deque<Cached> events;                             // under mutex_, contiguous seqs ending at last_seq
        std::unordered_map<std::string, std::int64_t> tokens;  // under mutex_
    };

    Topic &topic_of(const std::string &name, std::int64_t term);
    Result<void> load(const std::string &name, Topic &t, std::int64_t term);  // holds t.writer
    void append(const std::string &name, Topic &t, Cached c);                 // holds mutex_
    void trimmer_loop();

    RecordStore &store_;
    EventLogLimits limits_;

    std::mutex mutex_;
    std::condition_variable published_;
    std::int64_t term_ = -1;
    std::map<std::string, std::unique_ptr<Topic>> topics_;
    // Topics of older terms stay alive until destruction: a publish of the
    // old term may still hold their writer mutex.
    std::vector<std::unique_ptr<Topic>> retired_;
    std::uint64_t wake_generation_ = 0;
    bool stopping_ = false;

    std::deque<std::string> trim_queue_;  // DRD keys to delete, under mutex_
    std::condition_variable trim_wanted_;
    std::thread trimmer_;
};

}  // namespace harness::vmsvc
