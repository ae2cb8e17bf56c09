// Commit and reference counting. A derived type holds references to the
// types it was built from (MPI_Type_get_contents returns them), and a pending
// operation holds one to the type it moves, so MPI_Type_free only drops the
// user's reference (MPI-3.1 §4.1.9).
#include "type.hpp"

ftmpi_datatype_s::~ftmpi_datatype_s() {
    for (ftmpi_datatype_s *child : types) ftmpi::dt::release(child);
}

namespace ftmpi::dt {

void commit(Type *t) {
    if (t->committed) return;
    t->layout = compact(t->layout);
    t->committed = true;
}

void retain(Type *t) {
    if (t && !t->predefined) t->refs.fetch_add(1, std::memory_order_relaxed);
}

void release(Type *t) {
    if (!t || t->predefined) return;
    if (t->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete t;
}

}  // namespace ftmpi::dt
