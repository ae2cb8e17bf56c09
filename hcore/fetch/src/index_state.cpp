#include "index_state.hpp"

#include <sqlite3.h>

#include <ctime>

namespace harness::fetch {

namespace {

Error db_error(sqlite3 *db, const std::string &what) {
    return make_error(HARNESS_ERR_INTERNAL, "index state database: " + what + ": " + (db ? sqlite3_errmsg(db) : "?"));
}

struct Statement {
    sqlite3_stmt *stmt = nullptr;
    ~Statement() { sqlite3_finalize(stmt); }
};

}  // namespace

IndexState::~IndexState() {
    if (db_) sqlite3_close(db_);
}

Result<void> IndexState::open_locked() {
    if (db_) return {};
    if (file_.empty()) return make_error(HARNESS_ERR_INVALID_ARGUMENT, "no index state database configured");
    std::error_code ec;
    std::filesystem::create_directories(file_.parent_path(), ec);
    if (sqlite3_open_v2(file_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                        nullptr) != SQLITE_OK) {
        auto e = db_error(db_, "open " + file_.string());
        sqlite3_close(db_);
        db_ = nullptr;
        return e;
    }
    sqlite3_busy_timeout(db_, 5000);
    const char *schema = "CREATE TABLE IF NOT EXISTS repository_index ("
                         " url TEXT PRIMARY KEY,"
                         " highest_version INTEGER NOT NULL,"
                         " updated_at INTEGER NOT NULL)";
    if (sqlite3_exec(db_, schema, nullptr, nullptr, nullptr) != SQLITE_OK) {
        auto e = db_error(db_, "create table");
        sqlite3_close(db_);
        db_ = nullptr;
        return e;
    }
    return {};
}

Result<std::int64_t> IndexState::highest(const std::string &url) {
    std::lock_guard lock(mutex_);
    if (auto r = open_locked(); !r) return r.error();
    Statement st;
    if (sqlite3_prepare_v2(db_, "SELECT highest_version FROM repository_index WHERE url = ?1", -1, &st.stmt, nullptr) !=
        SQLITE_OK)
        return db_error(db_, "prepare");
    sqlite3_bind_text(st.stmt, 1, url.c_str(), -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st.stmt);
    if (rc == SQLITE_ROW) return static_cast<std::int64_t>(sqlite3_column_int64(st.stmt, 0));
    if (rc == SQLITE_DONE) return std::int64_t{0};
    return db_error(db_, "select");
}

Result<void> IndexState::record(const std::string &url, std::int64_t version) {
    std::lock_guard lock(mutex_);
    if (auto r = open_locked(); !r) return r.error();
    Statement st;
    const char *sql = "INSERT INTO repository_index (url, highest_version, updated_at) VALUES (?1, ?2, ?3)"
                      " ON CONFLICT(url) DO UPDATE SET"
                      "  highest_version = max(highest_version, excluded.highest_version),"
                      "  updated_at = excluded.updated_at";
    if (sqlite3_prepare_v2(db_, sql, -1, &st.stmt, nullptr) != SQLITE_OK) return db_error(db_, "prepare");
    sqlite3_bind_text(st.stmt, 1, url.c_str(), -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st.stmt, 2, version);
    sqlite3_bind_int64(st.stmt, 3, static_cast<sqlite3_int64>(std::time(nullptr)));
    if (sqlite3_step(st.stmt) != SQLITE_DONE) return db_error(db_, "update");
    return {};
}

}  // namespace harness::fetch
