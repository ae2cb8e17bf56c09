// The highest index version seen per repository URL, kept in SQLite so that a
// restarted daemon still refuses an older (replayed) index: rollback defence.
#pragma once

#include <harness/common/result.hpp>

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <string>

struct sqlite3;

namespace harness::fetch {

class IndexState {
public:
    explicit IndexState(std::filesystem::path db_file) : file_(std::move(db_file)) {}
    ~IndexState();
    IndexState(const IndexState &) = delete;
    IndexState &operator=(const IndexState &) = delete;

    // 0 when the repository was never seen.
    Result<std::int64_t> highest(const std::string &repository_url);
    // Raises the stored version to `version` (never lowers it).
    Result<void> record(const std::string &repository_url, std::int64_t version);

private:
    Result<void> open_locked();

    std::filesystem::path file_;
    sqlite3 *db_ = nullptr;
    std::mutex mutex_;
};

}  // namespace harness::fetch
