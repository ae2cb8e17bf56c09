// Attribute keys (keyvals) for communicators, datatypes and windows:
// their callbacks and their lifetime (a freed keyval lives on while an
// object still carries an attribute under it, MPI-3.1 §6.7.2).
#pragma once

#include "../internal/comm.hpp"

#include <mutex>

namespace ftmpi::comm {

struct Keyval {
    enum class Kind { comm, type, win };
    Kind kind = Kind::comm;
    MPI_Comm_copy_attr_function *comm_copy = nullptr;
    MPI_Comm_delete_attr_function *comm_delete = nullptr;
    MPI_Type_copy_attr_function *type_copy = nullptr;
    MPI_Type_delete_attr_function *type_delete = nullptr;
    MPI_Win_copy_attr_function *win_copy = nullptr;
    MPI_Win_delete_attr_function *win_delete = nullptr;
    void *extra_state = nullptr;
    bool freed = false;
    int uses = 0;  // attributes set under this key
};

// Guards keyvals and every object's attribute map. Recursive: callbacks may
// call attribute functions themselves.
std::recursive_mutex &attribute_mutex();

int create_keyval(const Keyval &, int *keyval);
// The live keyval of that kind, or null (predefined keys are not here).
Keyval *find_keyval(int keyval, Keyval::Kind);
// Marks it freed; forgotten once no attribute uses it.
void free_keyval(int keyval);
void attribute_added(int keyval);
void attribute_removed(int keyval);

bool is_predefined_key(int keyval);

}  // namespace ftmpi::comm
