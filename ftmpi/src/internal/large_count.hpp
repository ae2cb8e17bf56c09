// The MPI-4 large-count (`_c`) bindings forward a count that fits an int to
// the int call and refuse a larger one with MPI_ERR_COUNT.
#pragma once

#include "internal/errors.hpp"
#include "internal/pmpi.hpp"

#include <climits>
#include <cstddef>
#include <vector>

namespace ftmpi::large_count {

// Negative counts are left to the int call's own check.
inline bool fits(MPI_Count n) {
    return n <= INT_MAX;
}

// Every one of `counts` is an int (displacements and strides may be
// negative, so both bounds count).
template <typename... Counts>
bool all_fit(Counts... counts) {
    return ((static_cast<MPI_Count>(counts) <= INT_MAX && static_cast<MPI_Count>(counts) >= INT_MIN) && ...);
}

inline int narrow(MPI_Count n) {
    return static_cast<int>(n);
}

// The first n of `values` as ints into *out (resized); false when one is
// no int. A null array stays null (out empty, data() may be null): the int
// call decides whether it was significant.
inline bool narrow_all(const MPI_Count *values, int n, std::vector<int> *out) {
    out->clear();
    if (values == nullptr || n <= 0) return true;
    out->reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        if (values[i] > INT_MAX || values[i] < INT_MIN) return false;
        out->push_back(static_cast<int>(values[i]));
    }
    return true;
}

// nullptr for an array narrow_all left empty because the caller's was null.
inline const int *data_or_null(const MPI_Count *given, const std::vector<int> &narrowed) {
    return given == nullptr ? nullptr : narrowed.data();
}

inline int too_large(MPI_Comm comm, const char *function) {
    return comm::raise(comm, MPI_ERR_COUNT, function);
}

// Runs `body`, which narrows arrays into vectors and then calls the int
// form (whose errors have met their handler already): only an exception
// (out of memory) is raised here, as MPI_ERR_NO_MEM.
template <typename Body>
int without_exceptions(MPI_Comm comm, const char *function, Body &&body) noexcept {
    try {
        return body();
    } catch (...) {
        return comm::raise(comm, MPI_ERR_NO_MEM, function);
    }
}

}  // namespace ftmpi::large_count

// Defines MPI_<Name>_c(Params) and its PMPI twin: MPI_ERR_COUNT through
// too_large(Handle, function) when one of the parenthesised Counts is no
// int, else MPI_<Name>(Args), where the counts are narrowed with narrow().
// The file that uses it says which too_large() overloads are in scope (one
// per handle type: communicator, window, file).
#define FTMPI_LARGE_COUNT(Name, Handle, Params, Counts, Args)                                                          \
    extern "C" int MPI_##Name##_c Params noexcept {                                                                    \
        if (!ftmpi::large_count::all_fit Counts) return too_large(Handle, "MPI_" #Name "_c");                          \
        return MPI_##Name Args;                                                                                        \
    }                                                                                                                  \
    FTMPI_PMPI(Name##_c)
