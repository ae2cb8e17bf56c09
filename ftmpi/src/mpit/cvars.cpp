// The control variables: one per entry of libftmpi's settings table
// (settings/table.hpp), in its order, named by the environment variable.
//
// Types: boolean, integer and duration settings are MPI_INT (a duration in
// its unit), sizes MPI_UNSIGNED_LONG (bytes), strings MPI_CHAR, choices
// MPI_INT with an enumeration of their names. A setting with no default that
// is unset reads as -1 (its part decides at run time; the description says
// how). The settings are read at MPI_Init, so a writable one can be written
// before MPI_Init only (it is put in the environment MPI_Init reads), except
// FTMPI_LOG_LEVEL, which the logger takes at any time. The launcher's
// settings are MPI_T_SCOPE_READONLY.
#include "internal/runtime.hpp"
#include "mpit/mpit.hpp"
#include "runtime/log.hpp"
#include "settings/parse.hpp"
#include "settings/values.hpp"

#include <array>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <map>

namespace ftmpi::mpit {
namespace {

using settings::Id;
using settings::Origin;
using settings::Setting;
using settings::Type;

struct Meta {
    Id id;
    Category category;
    int verbosity;
    int scope;  // for user settings; the launcher's are read-only
};

constexpr int v_user = MPI_T_VERBOSITY_USER_BASIC;
constexpr int v_tuner = MPI_T_VERBOSITY_TUNER_BASIC;
constexpr int v_tuner_detail = MPI_T_VERBOSITY_TUNER_DETAIL;
constexpr int v_dev = MPI_T_VERBOSITY_MPIDEV_DETAIL;
constexpr int s_local = MPI_T_SCOPE_LOCAL;
constexpr int s_all = MPI_T_SCOPE_ALL;
constexpr int s_all_eq = MPI_T_SCOPE_ALL_EQ;
constexpr int s_readonly = MPI_T_SCOPE_READONLY;

// ALL_EQ: the ranks must agree (which ranks share memory, which algorithm
// a collective runs); ALL: each rank may differ, but the job's ranks
// should choose together (the drivers a pair of ranks can use).
constexpr std::array<Meta, static_cast<std::size_t>(Id::count)> metas{{
    {Id::log_level, Category::logging, v_user, s_local},
    {Id::verbose, Category::logging, v_user, s_local},
    {Id::job, Category::job, v_dev, s_readonly},
    {Id::job_key, Category::job, v_dev, s_readonly},
    {Id::rank, Category::job, v_dev, s_readonly},
    {Id::size, Category::job, v_dev, s_readonly},
    {Id::wireup, Category::job, v_dev, s_readonly},
    {Id::restarted, Category::job, v_dev, s_readonly},
    {Id::incarnation, Category::job, v_dev, s_readonly},
    {Id::round, Category::job, v_dev, s_readonly},
    {Id::standby, Category::job, v_dev, s_readonly},
    {Id::world_base, Category::job, v_dev, s_readonly},
    {Id::world_ranks, Category::job, v_dev, s_readonly},
    {Id::world_gaps, Category::job, v_dev, s_readonly},
    {Id::universe_size, Category::job, v_dev, s_readonly},
    {Id::parent, Category::job, v_dev, s_readonly},
    {Id::spawn_timeout, Category::job, v_tuner_detail, s_local},
    {Id::local_rank, Category::job, v_dev, s_readonly},
    {Id::local_size, Category::job, v_dev, s_readonly},
    {Id::appnum, Category::job, v_tuner_detail, s_local},
    {Id::initial_errhandler, Category::job, v_user, s_readonly},
    {Id::bind, Category::placement, v_user, s_readonly},
    {Id::bind_cpus, Category::placement, v_user, s_readonly},
    {Id::output_buffering, Category::placement, v_user, s_readonly},
    {Id::address, Category::placement, v_tuner_detail, s_local},
    {Id::transports, Category::p2p, v_tuner, s_all},
    {Id::ranks_per_node, Category::p2p, v_dev, s_all_eq},
    {Id::wireup_timeout, Category::p2p, v_tuner_detail, s_local},
    {Id::eager_limit, Category::p2p, v_tuner, s_local},
    {Id::spin, Category::p2p, v_tuner, s_local},
    {Id::progress_idle, Category::p2p, v_tuner_detail, s_local},
    {Id::yield_when_idle, Category::p2p, v_tuner, s_local},
    {Id::tcp_keepalive, Category::p2p, v_tuner_detail, s_local},
    {Id::shm_ring_bytes, Category::shared_memory, v_tuner, s_local},
    {Id::shm_cma, Category::shared_memory, v_tuner, s_local},
    {Id::shm_cma_min, Category::shared_memory, v_tuner, s_local},
    {Id::rma_direct, Category::shared_memory, v_tuner, s_local},
    {Id::comm_mode, Category::fault_tolerance, v_user, s_readonly},
    {Id::msg_mode, Category::fault_tolerance, v_user, s_readonly},
    {Id::coll_strict, Category::fault_tolerance, v_user, s_readonly},
    {Id::notifier, Category::fault_tolerance, v_user, s_readonly},
    {Id::confirm, Category::fault_tolerance, v_tuner, s_local},
    {Id::daemon_lost, Category::fault_tolerance, v_tuner_detail, s_local},
    {Id::daemon_hung, Category::fault_tolerance, v_tuner_detail, s_local},
    {Id::cominfo, Category::fault_tolerance, v_user, s_local},
    {Id::respawn, Category::fault_tolerance, v_tuner, s_local},
    {Id::join, Category::fault_tolerance, v_tuner, s_local},
    {Id::join_connect, Category::fault_tolerance, v_tuner_detail, s_local},
    {Id::join_state, Category::fault_tolerance, v_tuner_detail, s_local},
    {Id::standby_wait, Category::fault_tolerance, v_tuner_detail, s_local},
    {Id::coll_table, Category::collectives, v_tuner, s_all_eq},
    {Id::coll_shm_bytes, Category::collectives, v_tuner, s_all_eq},
}};

constexpr bool in_id_order() {
    for (std::size_t i = 0; i < metas.size(); ++i)
        if (static_cast<std::size_t>(metas[i].id) != i) return false;
    return true;
}
static_assert(in_id_order(), "one entry per setting, in the order of settings::Id");

// A string control variable's handle holds this many characters (with the
// null): as long as any path or list a setting takes.
constexpr int string_capacity = 4096;

// The enumerations of the choice settings, made at the first use.
const std::map<Id, ftmpi_t_enum_s> &enums() {
    static const std::map<Id, ftmpi_t_enum_s> made = [] {
        std::map<Id, ftmpi_t_enum_s> m;
        for (const Setting &s : settings::table()) {
            if (s.type != Type::choice) continue;
            ftmpi_t_enum_s e{s.name, {}};
            std::string_view rest = s.choices;
            while (!rest.empty()) {
                const auto comma = rest.find(',');
                e.items.emplace_back(rest.substr(0, comma));
                rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
            }
            m.emplace(s.id, std::move(e));
        }
        return m;
    }();
    return made;
}

// Values written before MPI_Init (under the interface's lock): they are in
// the environment too, but the values libftmpi read before MPI_Init are not.
std::map<Id, settings::Parsed> &written() {
    static std::map<Id, settings::Parsed> w;
    return w;
}

// The setting's value as a number (boolean, integer, size, duration, choice).
long long number_of(const Setting &s) {
    if (s.id == Id::log_level) return static_cast<long long>(log::level());
    if (auto it = written().find(s.id); it != written().end()) return it->second.number;
    const settings::Values &v = settings::current();
    const bool has_value = v.valid(s.id) && v.is_set(s.id);
    return has_value || s.fallback != nullptr ? v.number(s.id) : -1;  // an invalid value reads as the default
}

std::string text_of(const Setting &s) {
    if (auto it = written().find(s.id); it != written().end()) return it->second.text;
    return settings::current().text(s.id);
}

// The value `buf` holds for s, written as the environment gives it.
std::string as_text(const Setting &s, const void *buf) {
    if (s.type == Type::string) return static_cast<const char *>(buf);
    if (s.type == Type::size) {
        unsigned long bytes;
        std::memcpy(&bytes, buf, sizeof bytes);
        return std::to_string(bytes);
    }
    int value;
    std::memcpy(&value, buf, sizeof value);
    if (s.type == Type::choice) {
        const auto &items = enums().at(s.id).items;
        return value >= 0 && static_cast<std::size_t>(value) < items.size() ? items[static_cast<std::size_t>(value)]
                                                                            : std::string("?");
    }
    return std::to_string(value);
}

}  // namespace

int cvar_count() {
    return static_cast<int>(settings::table().size());
}

CvarInfo cvar_info(int index) {
    const Meta &m = metas[static_cast<std::size_t>(index)];
    const Setting &s = settings::setting(m.id);
    return {&s, m.category, m.verbosity, s.origin == Origin::launcher ? MPI_T_SCOPE_READONLY : m.scope};
}

MPI_Datatype cvar_datatype(const Setting &s) {
    switch (s.type) {
    case Type::size: return MPI_UNSIGNED_LONG;
    case Type::string: return MPI_CHAR;
    default: return MPI_INT;
    }
}

MPI_T_enum cvar_enum(const Setting &s) {
    auto it = enums().find(s.id);
    return it == enums().end() ? MPI_T_ENUM_NULL : const_cast<MPI_T_enum>(&it->second);
}

bool is_enum(MPI_T_enum e) {
    for (const auto &[id, made] : enums())
        if (&made == e) return true;
    return false;
}

int cvar_elements(const Setting &s) {
    return s.type == Type::string ? string_capacity : 1;
}

int cvar_read(int index, void *buf) {
    const Setting &s = *cvar_info(index).setting;
    if (s.type == Type::string) {
        const std::string text = text_of(s);
        const std::size_t n = std::min(text.size(), static_cast<std::size_t>(string_capacity - 1));
        std::memcpy(buf, text.data(), n);
        static_cast<char *>(buf)[n] = '\0';
    } else if (s.type == Type::size) {
        const auto bytes = static_cast<unsigned long>(number_of(s));
        std::memcpy(buf, &bytes, sizeof bytes);
    } else {
        const auto value = static_cast<int>(number_of(s));
        std::memcpy(buf, &value, sizeof value);
    }
    return MPI_SUCCESS;
}

int cvar_write(int index, const void *buf) {
    const CvarInfo info = cvar_info(index);
    const Setting &s = *info.setting;
    if (info.scope == MPI_T_SCOPE_READONLY || info.scope == MPI_T_SCOPE_CONSTANT) return MPI_T_ERR_CVAR_SET_NEVER;
    // The parts took their values at MPI_Init: a later value would not be heard.
    const bool fixed = runtime::initialized();
    if (fixed && s.id != Id::log_level) return MPI_T_ERR_CVAR_SET_NEVER;
    if (s.type == Type::string && ::strnlen(static_cast<const char *>(buf), string_capacity) == string_capacity)
        return MPI_T_ERR_INVALID;
    const std::string text = as_text(s, buf);
    auto parsed = settings::parse(s, text);
    if (!parsed) return MPI_T_ERR_INVALID;  // out of range, not one of the choices
    if (s.id == Id::log_level) {
        log::set_level(static_cast<log::Level>(parsed.value().number));
        return MPI_SUCCESS;
    }
    // MPI_Init reads the environment again (settings/values.hpp).
    if (::setenv(s.env, text.c_str(), 1) != 0) return MPI_T_ERR_MEMORY;
    written()[s.id] = std::move(parsed.value());
    return MPI_SUCCESS;
}

}  // namespace ftmpi::mpit
