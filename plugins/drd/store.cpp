#include "store.hpp"

#include <sqlite3.h>

namespace harness::drd {

namespace {

// One prepared statement, finalized on scope exit.
class Statement {
public:
    Statement(sqlite3 *db, const char *sql) {
        if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) stmt_ = nullptr;
    }
    ~Statement() { sqlite3_finalize(stmt_); }
    Statement(const Statement &) = delete;
    Statement &operator=(const Statement &) = delete;

    bool ok() const { return stmt_ != nullptr; }
    Statement &text(int i, const std::string &s) {
        sqlite3_bind_text(stmt_, i, s.data(), static_cast<int>(s.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Statement &blob(int i, std::span<const std::uint8_t> b) {
        // A zero-length blob must not bind as NULL.
        static const std::uint8_t empty = 0;
        sqlite3_bind_blob(stmt_, i, b.empty() ? &empty : b.data(), static_cast<int>(b.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Statement &i64(int i, std::int64_t v) {
        sqlite3_bind_int64(stmt_, i, v);
        return *this;
    }
    bool step_row() { return sqlite3_step(stmt_) == SQLITE_ROW; }
    bool run() { return sqlite3_step(stmt_) == SQLITE_DONE; }

    std::string col_text(int i) const {
        auto *p = reinterpret_cast<const char *>(sqlite3_column_text(stmt_, i));
        return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, i))) : std::string();
    }
    Bytes col_blob(int i) const {
        auto *p = static_cast<const std::uint8_t *>(sqlite3_column_blob(stmt_, i));
        return p ? Bytes(p, p + sqlite3_column_bytes(stmt_, i)) : Bytes();
    }
    std::int64_t col_i64(int i) const { return sqlite3_column_int64(stmt_, i); }

private:
    sqlite3_stmt *stmt_ = nullptr;
};

// The smallest string greater than every string starting with prefix, or
// nullopt when there is none (empty prefix, or all 0xff bytes).
std::optional<std::string> prefix_end(std::string prefix) {
    while (!prefix.empty()) {
        auto &c = reinterpret_cast<unsigned char &>(prefix.back());
        if (c != 0xff) {
            ++c;
            return prefix;
        }
        prefix.pop_back();
    }
    return std::nullopt;
}

std::vector<Record> scan_table(sqlite3 *db, const char *table, const std::string &prefix) {
    auto end = prefix_end(prefix);
    std::string sql = std::string("SELECT key, value, version FROM ") + table + " WHERE key >= ?1" +
        (end ? " AND key < ?2" : "") + " ORDER BY key";
    Statement s(db, sql.c_str());
    std::vector<Record> out;
    if (!s.ok()) return out;
    s.text(1, prefix);
    if (end) s.text(2, *end);
    while (s.step_row()) out.push_back(Record{s.col_text(0), s.col_blob(1), s.col_i64(2)});
    return out;
}

std::optional<Record> get_from(sqlite3 *db, const char *table, const std::string &key) {
    std::string sql = std::string("SELECT value, version FROM ") + table + " WHERE key = ?1";
    Statement s(db, sql.c_str());
    if (!s.ok()) return std::nullopt;
    s.text(1, key);
    if (!s.step_row()) return std::nullopt;
    return Record{key, s.col_blob(0), s.col_i64(1)};
}

// Remembers one applied request's outcome (requests table).
bool insert_request(sqlite3 *db, const RememberedRequest &r) {
    Statement s(db,
                "INSERT INTO requests (client, request, idx, ok, existed, version, current_version)"
                " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    return s.ok() &&
        s.text(1, r.client)
            .i64(2, r.request)
            .i64(3, r.index)
            .i64(4, r.ok)
            .i64(5, r.existed)
            .i64(6, r.version)
            .i64(7, r.current_version)
            .run();
}

}  // namespace

Result<std::unique_ptr<Store>> Store::open(const std::filesystem::path &file) {
    std::unique_ptr<Store> s(new Store());
    s->file_ = file;
    int rc = sqlite3_open_v2(file.c_str(), &s->db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX,
                             nullptr);
    if (rc != SQLITE_OK)
        return make_error(HARNESS_ERR_INTERNAL, "cannot open " + file.string() + ": " + sqlite3_errstr(rc));
    sqlite3_busy_timeout(s->db_, 2000);
    // WAL + NORMAL: a crash may lose the last transactions, but the raft log
    // (fsynced by c-raft) replays them, since last_applied moves with them.
    const char *schema =
        "PRAGMA journal_mode=WAL;"
        "PRAGMA synchronous=NORMAL;"
        "CREATE TABLE IF NOT EXISTS records (key TEXT PRIMARY KEY, value BLOB NOT NULL, version INTEGER NOT NULL);"
        "CREATE TABLE IF NOT EXISTS local_records (key TEXT PRIMARY KEY, value BLOB NOT NULL, version INTEGER NOT "
        "NULL);"
        "CREATE TABLE IF NOT EXISTS changes (idx INTEGER PRIMARY KEY, key TEXT NOT NULL, value BLOB NOT NULL,"
        "  version INTEGER NOT NULL, deleted INTEGER NOT NULL);"
        "CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL);"
        "CREATE TABLE IF NOT EXISTS requests (client TEXT NOT NULL, request INTEGER NOT NULL, idx INTEGER NOT NULL,"
        "  ok INTEGER NOT NULL, existed INTEGER NOT NULL, version INTEGER NOT NULL, current_version INTEGER NOT NULL,"
        "  PRIMARY KEY (client, request));"
        "INSERT OR IGNORE INTO meta VALUES ('last_applied', 0);";
    if (auto r = s->exec(schema); !r) return r.error();
    return s;
}

Store::~Store() {
    sqlite3_close_v2(db_);
}

Result<void> Store::exec(const char *sql) const {
    char *msg = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &msg) != SQLITE_OK) {
        std::string text = msg ? msg : "unknown error";
        sqlite3_free(msg);
        return make_error(HARNESS_ERR_INTERNAL, "sqlite (" + file_.string() + "): " + text);
    }
    return {};
}

std::int64_t Store::last_applied() const {
    std::lock_guard lock(mutex_);
    Statement s(db_, "SELECT value FROM meta WHERE name = 'last_applied'");
    return s.ok() && s.step_row() ? s.col_i64(0) : 0;
}

Result<ApplyOutcome> Store::apply(std::int64_t index, const Command &command) {
    std::lock_guard lock(mutex_);
    ApplyOutcome out;
    {
        Statement s(db_, "SELECT value FROM meta WHERE name = 'last_applied'");
        if (s.ok() && s.step_row() && index <= s.col_i64(0)) {
            out.skipped = true;
            return out;
        }
    }
    if (auto r = exec("BEGIN IMMEDIATE"); !r) return r.error();
    auto fail = [&](const std::string &what) -> Result<ApplyOutcome> {
        std::string message = "sqlite (" + file_.string() + "): " + what + ": " + sqlite3_errmsg(db_);
        (void)exec("ROLLBACK");
        return make_error(HARNESS_ERR_INTERNAL, message);
    };
    if (!command.client.empty()) {
        Statement q(db_,
                    "SELECT ok, existed, version, current_version FROM requests WHERE client = ?1 AND request = ?2");
        if (q.ok() && q.text(1, command.client).i64(2, command.request).step_row()) {
            out.ok = q.col_i64(0) != 0;
            out.existed = q.col_i64(1) != 0;
            out.version = q.col_i64(2);
            out.current_version = q.col_i64(3);
            out.repeated = true;
            Statement s(db_, "UPDATE meta SET value = ?1 WHERE name = 'last_applied'");
            if (!s.ok() || !s.i64(1, index).run()) return fail("last_applied");
            if (auto r = exec("COMMIT"); !r) {
                (void)exec("ROLLBACK");
                return r.error();
            }
            return out;
        }
    }
    auto current = get_from(db_, "records", command.key);
    std::int64_t current_version = current ? current->version : 0;
    bool change = false;
    bool deleted = false;
    switch (command.op) {
    case Op::put: change = true; break;
    case Op::cas:
        out.current_version = current_version;
        out.ok = command.expected_version == current_version;
        change = out.ok;
        break;
    case Op::del:
        out.existed = current.has_value();
        change = deleted = out.existed;
        break;
    }
    if (change && !deleted) {
        out.version = current_version + 1;
        if (command.op == Op::cas) out.current_version = out.version;
        Statement s(db_, "INSERT OR REPLACE INTO records (key, value, version) VALUES (?1, ?2, ?3)");
        if (!s.ok() || !s.text(1, command.key).blob(2, command.value).i64(3, out.version).run()) return fail("write");
    } else if (deleted) {
        Statement s(db_, "DELETE FROM records WHERE key = ?1");
        if (!s.ok() || !s.text(1, command.key).run()) return fail("delete");
    }
    if (change) {
        Statement s(db_,
                    "INSERT OR REPLACE INTO changes (idx, key, value, version, deleted) VALUES (?1, ?2, ?3, ?4, ?5)");
        if (!s.ok() ||
            !s.i64(1, index)
                 .text(2, command.key)
                 .blob(3, deleted ? std::span<const std::uint8_t>() : std::span<const std::uint8_t>(command.value))
                 .i64(4, deleted ? current_version : out.version)
                 .i64(5, deleted ? 1 : 0)
                 .run())
            return fail("record change");
        if (index % 1000 == 0) {
            Statement trim(db_, "DELETE FROM changes WHERE idx <= ?1");
            if (!trim.ok() || !trim.i64(1, index - kChangesKept).run()) return fail("trim changes");
        }
    }
    if (!command.client.empty() &&
        !insert_request(db_,
                        RememberedRequest{command.client, command.request, index, out.ok, out.existed, out.version,
                                          out.current_version}))
        return fail("remember the request");
    if (index % 1000 == 0) {
        Statement trim(db_, "DELETE FROM requests WHERE idx <= ?1");
        if (!trim.ok() || !trim.i64(1, index - kRequestsKept).run()) return fail("trim requests");
    }
    Statement s(db_, "UPDATE meta SET value = ?1 WHERE name = 'last_applied'");
    if (!s.ok() || !s.i64(1, index).run()) return fail("last_applied");
    if (auto r = exec("COMMIT"); !r) {
        (void)exec("ROLLBACK");
        return r.error();
    }
    return out;
}

std::optional<Record> Store::get(const std::string &key) const {
    std::lock_guard lock(mutex_);
    return get_from(db_, "records", key);
}

std::vector<Record> Store::scan(const std::string &prefix) const {
    std::lock_guard lock(mutex_);
    return scan_table(db_, "records", prefix);
}

std::vector<Change> Store::changes(const std::string &prefix, std::int64_t after, std::size_t limit) const {
    std::lock_guard lock(mutex_);
    Statement s(db_,
                "SELECT idx, key, value, version, deleted FROM changes WHERE idx > ?1 "
                "AND substr(key, 1, length(?2)) = ?2 ORDER BY idx LIMIT ?3");
    std::vector<Change> out;
    if (!s.ok()) return out;
    s.i64(1, after).text(2, prefix).i64(3, static_cast<std::int64_t>(limit));
    while (s.step_row())
        out.push_back(Change{s.col_i64(0), s.col_text(1), s.col_blob(2), s.col_i64(3), s.col_i64(4) != 0});
    return out;
}

Result<std::int64_t> Store::put_local(const std::string &key, std::span<const std::uint8_t> value) {
    std::lock_guard lock(mutex_);
    auto current = get_from(db_, "local_records", key);
    std::int64_t version = (current ? current->version : 0) + 1;
    Statement s(db_, "INSERT OR REPLACE INTO local_records (key, value, version) VALUES (?1, ?2, ?3)");
    if (!s.ok() || !s.text(1, key).blob(2, value).i64(3, version).run())
        return make_error(HARNESS_ERR_INTERNAL, std::string("sqlite: local write: ") + sqlite3_errmsg(db_));
    return version;
}

std::optional<Record> Store::get_local(const std::string &key) const {
    std::lock_guard lock(mutex_);
    return get_from(db_, "local_records", key);
}

std::vector<Record> Store::scan_local(const std::string &prefix) const {
    std::lock_guard lock(mutex_);
    return scan_table(db_, "local_records", prefix);
}

bool Store::del_local(const std::string &key) {
    std::lock_guard lock(mutex_);
    Statement s(db_, "DELETE FROM local_records WHERE key = ?1");
    return s.ok() && s.text(1, key).run() && sqlite3_changes(db_) > 0;
}

Result<Bytes> Store::snapshot() const {
    std::lock_guard lock(mutex_);
    Packer p;
    {
        Statement s(db_, "SELECT value FROM meta WHERE name = 'last_applied'");
        p.i64(s.ok() && s.step_row() ? s.col_i64(0) : 0);
    }
    auto records = scan_table(db_, "records", "");
    p.i64(static_cast<std::int64_t>(records.size()));
    for (const auto &r : records) p.str(r.key).bytes(r.value).i64(r.version);
    Statement s(db_, "SELECT idx, key, value, version, deleted FROM changes ORDER BY idx");
    if (!s.ok()) return make_error(HARNESS_ERR_INTERNAL, std::string("sqlite: snapshot: ") + sqlite3_errmsg(db_));
    std::vector<Change> changes;
    while (s.step_row())
        changes.push_back(Change{s.col_i64(0), s.col_text(1), s.col_blob(2), s.col_i64(3), s.col_i64(4) != 0});
    p.i64(static_cast<std::int64_t>(changes.size()));
    for (const auto &c : changes) p.i64(c.index).str(c.key).bytes(c.value).i64(c.version).boolean(c.deleted);
    std::vector<RememberedRequest> requests;
    Statement q(db_, "SELECT client, request, idx, ok, existed, version, current_version FROM requests");
    if (!q.ok()) return make_error(HARNESS_ERR_INTERNAL, std::string("sqlite: snapshot: ") + sqlite3_errmsg(db_));
    while (q.step_row())
        requests.push_back(RememberedRequest{q.col_text(0), q.col_i64(1), q.col_i64(2), q.col_i64(3) != 0,
                                             q.col_i64(4) != 0, q.col_i64(5), q.col_i64(6)});
    p.i64(static_cast<std::int64_t>(requests.size()));
    for (const auto &r : requests)
        p.str(r.client).i64(r.request).i64(r.index).boolean(r.ok).boolean(r.existed).i64(r.version).i64(
            r.current_version);
    if (p.failed()) return make_error(HARNESS_ERR_INTERNAL, "drd snapshot: out of memory");
    return frame_padded(p.view());
}

Result<void> Store::restore(std::span<const std::uint8_t> snapshot) {
    auto body = unframe_padded(snapshot);
    if (!body) return body.error();
    Unpacker u(*body);
    std::int64_t index = 0;
    std::int64_t n = 0;
    if (!u.i64(index) || !u.i64(n) || n < 0) return make_error(HARNESS_ERR_PROTOCOL, "malformed drd snapshot header");
    std::vector<Record> records;
    for (std::int64_t i = 0; i < n; ++i) {
        Record r;
        if (!u.str(r.key) || !u.bytes(r.value) || !u.i64(r.version))
            return make_error(HARNESS_ERR_PROTOCOL, "malformed drd snapshot record");
        records.push_back(std::move(r));
    }
    std::vector<Change> changes;
    if (!u.i64(n) || n < 0) return make_error(HARNESS_ERR_PROTOCOL, "malformed drd snapshot changes");
    for (std::int64_t i = 0; i < n; ++i) {
        Change c;
        if (!u.i64(c.index) || !u.str(c.key) || !u.bytes(c.value) || !u.i64(c.version) || !u.boolean(c.deleted))
            return make_error(HARNESS_ERR_PROTOCOL, "malformed drd snapshot change");
        changes.push_back(std::move(c));
    }
    // Remembered requests (absent from snapshots taken before they existed).
    std::vector<RememberedRequest> requests;
    if (!u.done()) {
        if (!u.i64(n) || n < 0) return make_error(HARNESS_ERR_PROTOCOL, "malformed drd snapshot requests");
        for (std::int64_t i = 0; i < n; ++i) {
            RememberedRequest r;
            if (!u.str(r.client) || !u.i64(r.request) || !u.i64(r.index) || !u.boolean(r.ok) || !u.boolean(r.existed) ||
                !u.i64(r.version) || !u.i64(r.current_version))
                return make_error(HARNESS_ERR_PROTOCOL, "malformed drd snapshot request");
            requests.push_back(std::move(r));
        }
    }
    if (!u.done()) return make_error(HARNESS_ERR_PROTOCOL, "trailing bytes in drd snapshot");

    std::lock_guard lock(mutex_);
    {
        Statement s(db_, "SELECT value FROM meta WHERE name = 'last_applied'");
        if (s.ok() && s.step_row() && s.col_i64(0) >= index) return {};
    }
    if (auto r = exec("BEGIN IMMEDIATE"); !r) return r.error();
    auto fail = [&]() -> Result<void> {
        std::string message = std::string("sqlite: restore: ") + sqlite3_errmsg(db_);
        (void)exec("ROLLBACK");
        return make_error(HARNESS_ERR_INTERNAL, message);
    };
    if (!exec("DELETE FROM records; DELETE FROM changes; DELETE FROM requests;")) return fail();
    for (const auto &r : records) {
        Statement s(db_, "INSERT INTO records (key, value, version) VALUES (?1, ?2, ?3)");
        if (!s.ok() || !s.text(1, r.key).blob(2, r.value).i64(3, r.version).run()) return fail();
    }
    for (const auto &c : changes) {
        Statement s(db_, "INSERT INTO changes (idx, key, value, version, deleted) VALUES (?1, ?2, ?3, ?4, ?5)");
        if (!s.ok() || !s.i64(1, c.index).text(2, c.key).blob(3, c.value).i64(4, c.version).i64(5, c.deleted).run())
            return fail();
    }
    for (const auto &r : requests)
        if (!insert_request(db_, r)) return fail();
    Statement s(db_, "UPDATE meta SET value = ?1 WHERE name = 'last_applied'");
    if (!s.ok() || !s.i64(1, index).run()) return fail();
    if (auto r = exec("COMMIT"); !r) {
        (void)exec("ROLLBACK");
        return r.error();
    }
    return {};
}

}  // namespace harness::drd
