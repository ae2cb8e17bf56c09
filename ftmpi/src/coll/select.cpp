// Which algorithm a collective runs (select.hpp): forced, table, or the built-in rules.
#include "select.hpp"

#include "table.hpp"

#include "runtime/log.hpp"
#include "settings/values.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace ftmpi::coll {

// The text of default_table.txt (default_table.cpp, generated at build time).
extern const char default_table_text[];

namespace {

// The variables that force one collective's algorithm: FTMPI_COLL_ALLREDUCE=ring.
constexpr const char *forced_prefix = "FTMPI_COLL_";

// A forced choice packed in one word (algorithm in the low byte, segment
// above it), so FTMPI_Coll_force from one thread and a collective in another
// see a whole choice; 0 = not forced.
using Packed = uint64_t;
Packed pack(uint8_t algorithm, int segment) {
    return algorithm | (static_cast<Packed>(segment) << 8);
}
Choice<uint8_t> unpack(Packed p) {
    return {static_cast<uint8_t>(p & 0xff), static_cast<int>(p >> 8)};
}

struct Selection {
    std::array<std::atomic<Packed>, collective_count> forced{};
    // Written by init_selection before any collective runs, then only read.
    Table custom;   // FTMPI_COLL_TABLE
    Table builtin;  // default_table.txt
};

Selection &selection() {
    static Selection s;
    return s;
}

std::string upper(const char *s) {
    std::string out(s);
    for (char &c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// "<algorithm>[:<segment>]" for collective c; "" or the error.
std::string parse_forced(Collective c, std::string_view value, Packed *out) {
    std::string_view name = value, segment_text;
    if (const size_t colon = value.find(':'); colon != std::string_view::npos) {
        name = value.substr(0, colon);
        segment_text = value.substr(colon + 1);
    }
    const auto algorithm = algorithm_from_name(c, name);
    if (!algorithm)
        return "'" + std::string(name) + "' is not an algorithm of " + collective_name(c) +
            " (valid: " + algorithm_names(c) + ")";
    int segment = 0;
    if (!segment_text.empty() || name.size() != value.size()) {
        if (!segmented(c, *algorithm))
            return std::string(collective_name(c)) + " " + algorithm_name(c, *algorithm) +
                " takes no segment size (\":<bytes>\" is for segmented algorithms)";
        const auto bytes = parse_size(segment_text);
        if (!bytes || *bytes < 1 || *bytes > (size_t{1} << 30))
            return "bad segment size '" + std::string(segment_text) + "' (1 byte to 1G, K/M/G suffixes)";
        segment = static_cast<int>(*bytes);
    }
    *out = pack(*algorithm, segment);
    return {};
}

std::string read_file(const char *path, std::string *text) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return std::string("cannot read FTMPI_COLL_TABLE=") + path + ": " + std::strerror(errno);
    std::ostringstream buffer;
    buffer << in.rdbuf();
    *text = buffer.str();
    return {};
}

// FTMPI_COLL_<X> that names no collective: most likely a typo; said on one
// line, not fatal (other FTMPI_COLL_ settings may come with other parts).
void warn_unknown_settings(const settings::Values &env) {
    // Rank 0 speaks for the job (every rank has the same environment); a
    // hot standby, whose FTMPI_RANK means nothing yet, is silent.
    if (env.integer(settings::Id::rank) != 0 || env.is_set(settings::Id::standby)) return;
    for (const auto &[name, value] : env.family(forced_prefix)) {
        const std::string key = name.substr(std::strlen(forced_prefix));
        const bool known = collective_from_name(key).has_value() && upper(key.c_str()) == key;
        if (!known)
            log::warn("%s is not a setting (ignored); collectives: %s", name.c_str(),
                      upper(collective_names().c_str()).c_str());
    }
}

}  // namespace

Choice<uint8_t> choose_raw(Collective c, int ranks, size_t bytes) {
    Selection &s = selection();
    if (const Packed forced = s.forced[static_cast<size_t>(c)].load(std::memory_order_relaxed)) return unpack(forced);
    for (const Table *table : {&s.custom, &s.builtin})
        if (const Rule *rule = table->find(c, ranks, bytes)) return {rule->algorithm, rule->segment};
    return {0, 0};
}

std::string init_selection() {
    Selection &s = selection();
    std::string error;
    if (!s.builtin.parse(default_table_text, "default_table.txt (compiled in)", &error)) return error;
    const settings::Values &env = settings::current();
    if (env.is_set(settings::Id::coll_table)) {
        const char *path = env.text(settings::Id::coll_table).c_str();
        std::string text;
        if (error = read_file(path, &text); !error.empty()) return error;
        if (!s.custom.parse(text, path, &error)) return "FTMPI_COLL_TABLE: " + error;
    }
    const auto forced = env.family(forced_prefix);
    for (int i = 0; i < collective_count; ++i) {
        const auto c = static_cast<Collective>(i);
        const std::string var = forced_prefix + upper(collective_name(c));
        const auto it = std::find_if(forced.begin(), forced.end(), [&](const auto &f) { return f.first == var; });
        if (it == forced.end() || it->second.empty()) continue;
        const std::string &value = it->second;
        Packed packed = 0;
        if (error = parse_forced(c, value, &packed); !error.empty()) return var + "=" + value + ": " + error;
        s.forced[static_cast<size_t>(i)].store(packed, std::memory_order_relaxed);
    }
    warn_unknown_settings(env);
    return {};
}

std::string force(const char *collective, const char *algorithm) {
    if (collective == nullptr) return "no collective named";
    const auto c = collective_from_name(collective);
    if (!c) return std::string("'") + collective + "' is not a collective (valid: " + collective_names() + ")";
    Packed packed = 0;
    if (algorithm != nullptr && *algorithm != '\0')
        if (std::string error = parse_forced(*c, algorithm, &packed); !error.empty()) return error;
    selection().forced[static_cast<size_t>(*c)].store(packed, std::memory_order_relaxed);
    return {};
}

}  // namespace ftmpi::coll
