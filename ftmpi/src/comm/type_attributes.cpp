// Datatype attributes: keyvals with callbacks and
// set/get/delete on any datatype handle, stored beside the datatype in a
// table of this part. Delete callbacks run on MPI_Type_delete_attr, on
// replacement and at MPI_Type_free (newest first); MPI_Type_dup copies
// through the copy callbacks (MPI-3.1 §6.7.4).
#include "../internal/comm.hpp"
#include "../internal/errors.hpp"
#include "../internal/pmpi.hpp"
#include "keyval.hpp"

#include <map>

using namespace ftmpi::comm;

namespace {
std::map<MPI_Datatype, std::map<int, void *>> &type_attributes() {
    static auto *table = new std::map<MPI_Datatype, std::map<int, void *>>;
    return *table;
}

int delete_one(MPI_Datatype type, std::map<int, void *> &attrs, int keyval) {
    Keyval *k = find_keyval(keyval, Keyval::Kind::type);
    auto it = attrs.find(keyval);
    if (k != nullptr && k->type_delete != nullptr) {
        int err = k->type_delete(type, keyval, it->second, k->extra_state);
        if (err != MPI_SUCCESS) return err;
    }
    attrs.erase(it);
    attribute_removed(keyval);
    return MPI_SUCCESS;
}
}  // namespace

namespace ftmpi::comm {

int copy_type_attributes(MPI_Datatype from, MPI_Datatype to) {
    std::unique_lock lock(attribute_mutex());
    auto t = type_attributes().find(from);
    if (t == type_attributes().end()) return MPI_SUCCESS;
    const std::map<int, void *> items = t->second;  // a callback may change the table
    for (const auto &[key, value] : items) {
        Keyval *k = find_keyval(key, Keyval::Kind::type);
        if (k == nullptr || k->type_copy == nullptr) continue;
        void *out = nullptr;
        int flag = 0;
        int err = k->type_copy(from, key, k->extra_state, value, &out, &flag);
        if (err != MPI_SUCCESS) {
            lock.unlock();
            delete_type_attributes(to);
            return err;
        }
        if (flag) {
            type_attributes()[to][key] = out;
            attribute_added(key);
        }
    }
    return MPI_SUCCESS;
}

int delete_type_attributes(MPI_Datatype type) {
    std::lock_guard lock(attribute_mutex());
    auto t = type_attributes().find(type);
    if (t == type_attributes().end()) return MPI_SUCCESS;
    int first_error = MPI_SUCCESS;
    std::vector<int> keys;
    for (const auto &[key, value] : t->second) keys.push_back(key);
    for (auto key = keys.rbegin(); key != keys.rend(); ++key) {
        auto &attrs = type_attributes()[type];
        if (!attrs.count(*key)) continue;
        int err = delete_one(type, attrs, *key);
        if (err != MPI_SUCCESS) {
            if (first_error == MPI_SUCCESS) first_error = err;
            attrs.erase(*key);  // the handle goes away regardless
            attribute_removed(*key);
        }
    }
    type_attributes().erase(type);
    return first_error;
}

}  // namespace ftmpi::comm

extern "C" int MPI_TYPE_NULL_COPY_FN(MPI_Datatype, int, void *, void *, void *, int *flag) noexcept {
    *flag = 0;
    return MPI_SUCCESS;
}
extern "C" int MPI_TYPE_DUP_FN(MPI_Datatype, int, void *, void *in, void *out, int *flag) noexcept {
    *static_cast<void **>(out) = in;
    *flag = 1;
    return MPI_SUCCESS;
}
extern "C" int MPI_TYPE_NULL_DELETE_FN(MPI_Datatype, int, void *, void *) noexcept {
    return MPI_SUCCESS;
}

extern "C" int MPI_Type_create_keyval(MPI_Type_copy_attr_function *type_copy_attr_fn,
                                      MPI_Type_delete_attr_function *type_delete_attr_fn, int *type_keyval,
                                      void *extra_state) noexcept {
    if (type_keyval == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Type_create_keyval");
    Keyval k;
    k.kind = Keyval::Kind::type;
    k.type_copy = type_copy_attr_fn;
    k.type_delete = type_delete_attr_fn;
    k.extra_state = extra_state;
    return create_keyval(k, type_keyval);
}
FTMPI_PMPI(Type_create_keyval)

extern "C" int MPI_Type_free_keyval(int *type_keyval) noexcept {
    if (type_keyval == nullptr || find_keyval(*type_keyval, Keyval::Kind::type) == nullptr)
        return raise(MPI_COMM_NULL, MPI_ERR_KEYVAL, "MPI_Type_free_keyval");
    free_keyval(*type_keyval);
    *type_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_free_keyval)

extern "C" int MPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val) noexcept {
    if (datatype == MPI_DATATYPE_NULL) return raise(MPI_COMM_NULL, MPI_ERR_TYPE, "MPI_Type_set_attr");
    std::lock_guard lock(attribute_mutex());
    Keyval *k = find_keyval(type_keyval, Keyval::Kind::type);
    if (k == nullptr || k->freed) return raise(MPI_COMM_NULL, MPI_ERR_KEYVAL, "MPI_Type_set_attr");
    auto &attrs = type_attributes()[datatype];
    if (attrs.count(type_keyval)) {
        int err = delete_one(datatype, attrs, type_keyval);
        if (err != MPI_SUCCESS) return raise(MPI_COMM_NULL, err, "MPI_Type_set_attr");
    }
    attrs[type_keyval] = attribute_val;
    attribute_added(type_keyval);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_set_attr)

extern "C" int MPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag) noexcept {
    if (datatype == MPI_DATATYPE_NULL) return raise(MPI_COMM_NULL, MPI_ERR_TYPE, "MPI_Type_get_attr");
    if (attribute_val == nullptr || flag == nullptr) return raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Type_get_attr");
    std::lock_guard lock(attribute_mutex());
    if (find_keyval(type_keyval, Keyval::Kind::type) == nullptr)
        return raise(MPI_COMM_NULL, MPI_ERR_KEYVAL, "MPI_Type_get_attr");
    *flag = 0;
    auto t = type_attributes().find(datatype);
    if (t == type_attributes().end()) return MPI_SUCCESS;
    auto it = t->second.find(type_keyval);
    if (it == t->second.end()) return MPI_SUCCESS;
    *flag = 1;
    *static_cast<void **>(attribute_val) = it->second;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_get_attr)

extern "C" int MPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval) noexcept {
    if (datatype == MPI_DATATYPE_NULL) return raise(MPI_COMM_NULL, MPI_ERR_TYPE, "MPI_Type_delete_attr");
    std::lock_guard lock(attribute_mutex());
    auto t = type_attributes().find(datatype);
    if (find_keyval(type_keyval, Keyval::Kind::type) == nullptr || t == type_attributes().end() ||
        !t->second.count(type_keyval))
        return raise(MPI_COMM_NULL, MPI_ERR_KEYVAL, "MPI_Type_delete_attr");
    int err = delete_one(datatype, t->second, type_keyval);
    if (t->second.empty()) type_attributes().erase(t);
    return raise(MPI_COMM_NULL, err, "MPI_Type_delete_attr");
}
FTMPI_PMPI(Type_delete_attr)
