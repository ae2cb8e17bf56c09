// See algorithm_names.hpp. The lists below must follow the enums of
// select.hpp (value k is entry k-1); tests/unit/ftmpi_coll checks them.
#include "algorithm_names.hpp"

#include <array>
#include <cctype>
#include <vector>

namespace ftmpi::coll {
namespace {

struct Entry {
    const char *name;
    std::vector<const char *> algorithms;
    std::vector<const char *> segmented;  // those taking seg=BYTES
};

const std::array<Entry, collective_count> &entries() {
    static const std::array<Entry, collective_count> list{{
        {"barrier", {"dissemination", "tree", "shm"}, {}},
        {"bcast", {"binomial", "pipeline", "shm"}, {"pipeline"}},
        {"reduce", {"binomial", "shm"}, {}},
        {"allreduce", {"recursive_doubling", "ring", "reduce_bcast", "rabenseifner", "shm"}, {}},
        {"reduce_scatter", {"ring", "reduce_scatterv", "recursive_halving"}, {}},
        {"scan", {"linear", "recursive_doubling"}, {}},
        {"exscan", {"linear", "recursive_doubling"}, {}},
        {"gather", {"linear", "binomial", "shm"}, {}},
        {"scatter", {"linear", "binomial", "shm"}, {}},
        {"allgather", {"ring", "bruck", "shm"}, {}},
        {"alltoall", {"linear", "pairwise", "bruck", "shm"}, {}},
    }};
    return list;
}

bool same(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
            return false;
    return true;
}

std::string join(const std::vector<const char *> &names) {
    std::string out;
    for (const char *n : names) {
        if (!out.empty()) out += ", ";
        out += n;
    }
    return out;
}

const Entry &entry(Collective c) {
    return entries()[static_cast<size_t>(c)];
}

}  // namespace

const char *collective_name(Collective c) {
    return entry(c).name;
}

std::optional<Collective> collective_from_name(std::string_view name) {
    for (int i = 0; i < collective_count; ++i)
        if (same(entries()[static_cast<size_t>(i)].name, name)) return static_cast<Collective>(i);
    return std::nullopt;
}

std::string collective_names() {
    std::vector<const char *> names;
    for (const Entry &e : entries()) names.push_back(e.name);
    return join(names);
}

const char *algorithm_name(Collective c, uint8_t algorithm) {
    const auto &list = entry(c).algorithms;
    return algorithm >= 1 && algorithm <= list.size() ? list[algorithm - 1u] : "automatic";
}

std::optional<uint8_t> algorithm_from_name(Collective c, std::string_view name) {
    const auto &list = entry(c).algorithms;
    for (size_t i = 0; i < list.size(); ++i)
        if (same(list[i], name)) return static_cast<uint8_t>(i + 1);
    return std::nullopt;
}

std::string algorithm_names(Collective c) {
    return join(entry(c).algorithms);
}

bool segmented(Collective c, uint8_t algorithm) {
    const char *name = algorithm_name(c, algorithm);
    for (const char *s : entry(c).segmented)
        if (same(s, name)) return true;
    return false;
}

int algorithm_count(Collective c) {
    return static_cast<int>(entry(c).algorithms.size());
}

}  // namespace ftmpi::coll
