// Owner: coll (mpicoll). See select.hpp.
#include "select.hpp"

#include <cstdlib>
#include <map>
#include <mutex>
#include <string>

namespace ftmpi::coll {

std::string_view forced_algorithm(const char *collective) {
    static std::mutex mutex;
    static std::map<std::string, std::string> cache;
    std::lock_guard lock(mutex);
    auto it = cache.find(collective);
    if (it == cache.end()) {
        const char *value = std::getenv((std::string("FTMPI_COLL_") + collective).c_str());
        it = cache.emplace(collective, value ? value : "").first;
    }
    return it->second;
}

}  // namespace ftmpi::coll
