// The keyval table (see keyval.hpp).
#include "keyval.hpp"

#include <map>

namespace ftmpi::comm {
namespace {
// Keys 1..MPI_LASTUSEDCODE are the predefined attributes of mpi.h; user
// keys start well above them.
constexpr int first_user_key = 64;
int next_key = first_user_key;
std::map<int, Keyval> &keyvals() {
    static auto *table = new std::map<int, Keyval>;  // outlives static destructors
    return *table;
}
}  // namespace

std::recursive_mutex &attribute_mutex() {
    static auto *m = new std::recursive_mutex;
    return *m;
}

// Keys 8..15 are the fault-tolerance attributes of mpi-ext.h (src/ft/attributes.cpp).
bool is_predefined_key(int keyval) {
    return keyval >= MPI_TAG_UB && keyval <= FTMPI_INCARNATION;
}

int create_keyval(const Keyval &k, int *keyval) {
    std::lock_guard lock(attribute_mutex());
    // A user key must never read as a predefined window attribute.
    if (next_key >= MPI_WIN_BASE && next_key <= MPI_WIN_MODEL) next_key = MPI_WIN_MODEL + 1;
    const int key = next_key++;
    keyvals()[key] = k;
    *keyval = key;
    return MPI_SUCCESS;
}

Keyval *find_keyval(int keyval, Keyval::Kind kind) {
    std::lock_guard lock(attribute_mutex());
    auto it = keyvals().find(keyval);
    if (it == keyvals().end() || it->second.kind != kind) return nullptr;
    return &it->second;
}

void free_keyval(int keyval) {
    std::lock_guard lock(attribute_mutex());
    auto it = keyvals().find(keyval);
    if (it == keyvals().end()) return;
    it->second.freed = true;
    if (it->second.uses == 0) keyvals().erase(it);
}

void attribute_added(int keyval) {
    std::lock_guard lock(attribute_mutex());
    auto it = keyvals().find(keyval);
    if (it != keyvals().end()) ++it->second.uses;
}

void attribute_removed(int keyval) {
    std::lock_guard lock(attribute_mutex());
    auto it = keyvals().find(keyval);
    if (it == keyvals().end()) return;
    if (--it->second.uses == 0 && it->second.freed) keyvals().erase(it);
}

}  // namespace ftmpi::comm
