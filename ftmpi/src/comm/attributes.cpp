// Communicator attributes (MPI-3.1 §6.7): keyvals with copy
// and delete callbacks, the MPI-1 names, and the predefined attributes of
// MPI_COMM_WORLD.
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "keyval.hpp"
#include "objects.hpp"
#include "settings/values.hpp"
#include <algorithm>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>

using namespace ftmpi::comm;

namespace {
// Values of the predefined attributes: MPI hands out pointers to them.
int tag_ub_value = 0x0fffffff;   // the collective channel uses tags above it
int host_value = MPI_PROC_NULL;  // no process is special
int io_value = MPI_ANY_SOURCE;   // every process can do I/O
int wtime_is_global_value = 0;
int appnum_value = 0;
int universe_size_value = 1;
int lastusedcode_value = MPI_ERR_LASTCODE;

// The predefined attribute `keyval` of MPI_COMM_WORLD, or null.
void *predefined_value(int keyval) {
    switch (keyval) {
    case MPI_TAG_UB: return &tag_ub_value;
    case MPI_HOST: return &host_value;
    case MPI_IO: return &io_value;
    case MPI_WTIME_IS_GLOBAL: return &wtime_is_global_value;
    case MPI_APPNUM: return &appnum_value;
    case MPI_UNIVERSE_SIZE: return &universe_size_value;
    case MPI_LASTUSEDCODE: lastusedcode_value = last_used_code(); return &lastusedcode_value;
    default: return nullptr;
    }
}

// Stores an attribute and records when it was set (MPI-3.1 §8.7.1: at
// MPI_Finalize COMM_SELF's attributes are deleted in reverse order of setting).
void store(MPI_Comm comm, int keyval, void *value) {
    comm->attributes[keyval] = value;
    std::erase(comm->attribute_order, keyval);
    comm->attribute_order.push_back(keyval);
    attribute_added(keyval);
}

void forget(MPI_Comm comm, int keyval) {
    comm->attributes.erase(keyval);
    std::erase(comm->attribute_order, keyval);
    attribute_removed(keyval);
}

// Calls the delete callback for comm's attribute under keyval and removes it.
int delete_one(MPI_Comm comm, int keyval) {
    auto it = comm->attributes.find(keyval);
    if (it == comm->attributes.end()) return MPI_ERR_KEYVAL;
    Keyval *k = find_keyval(keyval, Keyval::Kind::comm);
    if (k != nullptr && k->comm_delete != nullptr) {
        int err = k->comm_delete(comm, keyval, it->second, k->extra_state);
        if (err != MPI_SUCCESS) return err;  // the attribute stays, as the standard says
    }
    forget(comm, keyval);
    return MPI_SUCCESS;
}

int set_attr(MPI_Comm comm, int keyval, void *value, const char *fn) {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, fn);
    std::lock_guard lock(attribute_mutex());
    Keyval *k = find_keyval(keyval, Keyval::Kind::comm);
    if (k == nullptr || k->freed) return raise(comm, MPI_ERR_KEYVAL, fn);
    if (comm->attributes.count(keyval)) {
        int err = delete_one(comm, keyval);
        if (err != MPI_SUCCESS) return raise(comm, err, fn);
    }
    store(comm, keyval, value);
    return MPI_SUCCESS;
}

int get_attr(MPI_Comm comm, int keyval, void *value, int *flag, const char *fn) {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, fn);
    if (value == nullptr || flag == nullptr) return raise(comm, MPI_ERR_ARG, fn);
    if (ftmpi::ft::is_attribute_key(keyval)) {  // fault-tolerance details (src/ft), on every comm
        *static_cast<void **>(value) = ftmpi::ft::attribute_value(comm, keyval);
        *flag = 1;
        return MPI_SUCCESS;
    }
    if (is_predefined_key(keyval)) {
        void *v = comm == MPI_COMM_WORLD ? predefined_value(keyval) : nullptr;
        *flag = v != nullptr;
        if (v != nullptr) *static_cast<void **>(value) = v;
        return MPI_SUCCESS;
    }
    std::lock_guard lock(attribute_mutex());
    if (find_keyval(keyval, Keyval::Kind::comm) == nullptr) return raise(comm, MPI_ERR_KEYVAL, fn);
    auto it = comm->attributes.find(keyval);
    *flag = it != comm->attributes.end();
    if (*flag) *static_cast<void **>(value) = it->second;
    return MPI_SUCCESS;
}

int delete_attr(MPI_Comm comm, int keyval, const char *fn) {
    if (!valid(comm)) return raise(comm, MPI_ERR_COMM, fn);
    std::lock_guard lock(attribute_mutex());
    if (find_keyval(keyval, Keyval::Kind::comm) == nullptr) return raise(comm, MPI_ERR_KEYVAL, fn);
    if (!comm->attributes.count(keyval)) return raise(comm, MPI_ERR_KEYVAL, fn);
    return raise(comm, delete_one(comm, keyval), fn);
}

int create_comm_keyval(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del, int *keyval,
                       void *extra_state, const char *fn) {
    if (keyval == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, fn);
    Keyval k;
    k.kind = Keyval::Kind::comm;
    k.comm_copy = copy;
    k.comm_delete = del;
    k.extra_state = extra_state;
    return create_keyval(k, keyval);
}

int free_comm_keyval(int *keyval, const char *fn) {
    if (keyval == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, fn);
    if (is_predefined_key(*keyval) || find_keyval(*keyval, Keyval::Kind::comm) == nullptr)
        return raise(MPI_COMM_NULL, MPI_ERR_KEYVAL, fn);
    free_keyval(*keyval);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}
}  // namespace

namespace ftmpi::comm {

int delete_all_attributes(MPI_Comm comm) {
    std::lock_guard lock(attribute_mutex());
    int first_error = MPI_SUCCESS;
    // Newest first; copy the keys: a callback may delete other attributes.
    std::vector<int> keys(comm->attribute_order.rbegin(), comm->attribute_order.rend());
    for (int key : keys) {
        if (!comm->attributes.count(key)) continue;
        int err = delete_one(comm, key);
        if (err != MPI_SUCCESS) {
            if (first_error == MPI_SUCCESS) first_error = err;
            forget(comm, key);  // the communicator goes away regardless
        }
    }
    return first_error;
}

int copy_all_attributes(MPI_Comm from, MPI_Comm to) {
    std::lock_guard lock(attribute_mutex());
    std::vector<std::pair<int, void *>> items;
    for (int key : from->attribute_order) items.emplace_back(key, from->attributes.at(key));
    for (const auto &[key, value] : items) {
        Keyval *k = find_keyval(key, Keyval::Kind::comm);
        if (k == nullptr || k->comm_copy == nullptr) continue;
        void *out = nullptr;
        int flag = 0;
        int err = k->comm_copy(from, key, k->extra_state, value, &out, &flag);
        if (err != MPI_SUCCESS) return err;
        if (flag) store(to, key, out);
    }
    return MPI_SUCCESS;
}

void set_predefined_attributes(MPI_Comm, int world_size) {
    const auto &env = settings::current();
    // The processes that could run at once: the launcher's slots, never
    // fewer than MPI_COMM_WORLD (MPI-3.1 §10.5.1).
    universe_size_value = env.is_set(settings::Id::universe_size)
        ? std::max(world_size, env.integer(settings::Id::universe_size))
        : world_size;
    if (env.is_set(settings::Id::appnum)) appnum_value = env.integer(settings::Id::appnum);
}

}  // namespace ftmpi::comm

extern "C" int MPI_COMM_NULL_COPY_FN(MPI_Comm, int, void *, void *, void *, int *flag) noexcept {
    *flag = 0;
    return MPI_SUCCESS;
}
extern "C" int MPI_COMM_DUP_FN(MPI_Comm, int, void *, void *attribute_val_in, void *attribute_val_out,
                               int *flag) noexcept {
    *static_cast<void **>(attribute_val_out) = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}
extern "C" int MPI_COMM_NULL_DELETE_FN(MPI_Comm, int, void *, void *) noexcept {
    return MPI_SUCCESS;
}
extern "C" int MPI_NULL_COPY_FN(MPI_Comm c, int k, void *e, void *in, void *out, int *flag) noexcept {
    return MPI_COMM_NULL_COPY_FN(c, k, e, in, out, flag);
}
extern "C" int MPI_DUP_FN(MPI_Comm c, int k, void *e, void *in, void *out, int *flag) noexcept {
    return MPI_COMM_DUP_FN(c, k, e, in, out, flag);
}
extern "C" int MPI_NULL_DELETE_FN(MPI_Comm, int, void *, void *) noexcept {
    return MPI_SUCCESS;
}

extern "C" int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                      MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                                      void *extra_state) noexcept {
    return create_comm_keyval(comm_copy_attr_fn, comm_delete_attr_fn, comm_keyval, extra_state,
                              "MPI_Comm_create_keyval");
}
FTMPI_PMPI(Comm_create_keyval)

extern "C" int MPI_Comm_free_keyval(int *comm_keyval) noexcept {
    return free_comm_keyval(comm_keyval, "MPI_Comm_free_keyval");
}
FTMPI_PMPI(Comm_free_keyval)

extern "C" int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val) noexcept {
    return set_attr(comm, comm_keyval, attribute_val, "MPI_Comm_set_attr");
}
FTMPI_PMPI(Comm_set_attr)

extern "C" int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag) noexcept {
    return get_attr(comm, comm_keyval, attribute_val, flag, "MPI_Comm_get_attr");
}
FTMPI_PMPI(Comm_get_attr)

extern "C" int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval) noexcept {
    return delete_attr(comm, comm_keyval, "MPI_Comm_delete_attr");
}
FTMPI_PMPI(Comm_delete_attr)

extern "C" int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                                 void *extra_state) noexcept {
    return create_comm_keyval(copy_fn, delete_fn, keyval, extra_state, "MPI_Keyval_create");
}
FTMPI_PMPI(Keyval_create)

extern "C" int MPI_Keyval_free(int *keyval) noexcept {
    return free_comm_keyval(keyval, "MPI_Keyval_free");
}
FTMPI_PMPI(Keyval_free)

extern "C" int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val) noexcept {
    return set_attr(comm, keyval, attribute_val, "MPI_Attr_put");
}
FTMPI_PMPI(Attr_put)

extern "C" int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag) noexcept {
    return get_attr(comm, keyval, attribute_val, flag, "MPI_Attr_get");
}
FTMPI_PMPI(Attr_get)

extern "C" int MPI_Attr_delete(MPI_Comm comm, int keyval) noexcept {
    return delete_attr(comm, keyval, "MPI_Attr_delete");
}
FTMPI_PMPI(Attr_delete)
