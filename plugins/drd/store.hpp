// store.hpp — the DRD's state machine on SQLite.
//
// Two kinds of records live in one database file (<root>/var/vm/drd/drd.sqlite):
//   records        replicated: changed only by apply() of committed log
//                  entries, so every replica holds the same rows;
//   local_records  "local" replication: this daemon's own, never replicated.
// Every applied entry that changes a record also appends to `changes`, keyed
// by its raft log index, which is what watch() serves — the same index on
// every daemon, in commit order. The last applied index is stored in the same
// transaction as the change, so after a crash the raft log replay skips what
// SQLite already has (apply() is idempotent by index).
//
// Thread safety: every method may be called from any thread (one mutex);
// snapshots read through a second connection so that applies continue
// while a snapshot is serialized (c-raft's asynchronous snapshot hook).
#pragma once

#include "command.hpp"

#include <harness/common/pack.hpp>
#include <harness/common/result.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace harness::drd {

struct Record {
    std::string key;
    Bytes value;
    std::int64_t version = 0;
};

struct Change {
    std::int64_t index = 0;
    std::string key;
    Bytes value;
    std::int64_t version = 0;
    bool deleted = false;
};

// The outcome of an applied command with a client, kept to answer its retries.
struct RememberedRequest {
    std::string client;
    std::int64_t request = 0;
    std::int64_t index = 0;  // the log entry that applied it
    bool ok = true;
    bool existed = false;
    std::int64_t version = 0;
    std::int64_t current_version = 0;
};

class Store {
public:
    // Opens or creates the database; creates missing tables.
    static Result<std::unique_ptr<Store>> open(const std::filesystem::path &file);
    ~Store();
    Store(const Store &) = delete;
    Store &operator=(const Store &) = delete;

    // Applies the committed entry at index. An index at or below
    // last_applied() was applied before a restart: nothing changes and the
    // outcome says skipped. A command whose (client, request) was applied
    // before changes nothing either and answers that first outcome
    // (repeated); the outcome of every command with a client is remembered
    // for kRequestsKept entries.
    Result<ApplyOutcome> apply(std::int64_t index, const Command &command);
    std::int64_t last_applied() const;

    std::optional<Record> get(const std::string &key) const;
    std::vector<Record> scan(const std::string &prefix) const;
    // Changes under prefix with index > after, oldest first, at most limit.
    std::vector<Change> changes(const std::string &prefix, std::int64_t after, std::size_t limit) const;

    // "local" replication: this daemon only.
    Result<std::int64_t> put_local(const std::string &key, std::span<const std::uint8_t> value);
    std::optional<Record> get_local(const std::string &key) const;
    std::vector<Record> scan_local(const std::string &prefix) const;
    bool del_local(const std::string &key);

    // Snapshot of the replicated state: records, retained changes, the
    // remembered requests' outcomes and the last applied index, as a padded
    // frame (see command.hpp).
    Result<Bytes> snapshot() const;
    // Replaces the replicated state with a snapshot's, unless this store has
    // already applied past it (then the log replay brings nothing new).
    Result<void> restore(std::span<const std::uint8_t> snapshot);

    // How many changes to keep for watches (older ones are dropped).
    static constexpr std::int64_t kChangesKept = 100000;
    // How many log entries back a (client, request) is remembered: a retry
    // comes within seconds, long before this many writes.
    static constexpr std::int64_t kRequestsKept = 10000;

private:
    Store() = default;
    Result<void> exec(const char *sql) const;

    sqlite3 *db_ = nullptr;
    mutable std::mutex mutex_;
    std::filesystem::path file_;
};

}  // namespace harness::drd
