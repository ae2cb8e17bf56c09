// MPI_*_c2f/f2c: Fortran integers for C handles, as
// indexes into one table of every handle ever converted (0 is the null
// handle). Enough for C libraries that store handles as MPI_Fint, and the
// handles of the Fortran bindings (ftmpi/fortran).
//
// The predefined handles come first, in the fixed order of
// kPredefined below, so their Fortran values are compile-time constants:
// mpif.h is generated at build time by a program that asks MPI_*_c2f for
// each of them (ftmpi/fortran/gen_mpif.cpp). Append new predefined handles
// at the end only: a reorder changes the values compiled into Fortran
// programs.
#include "internal/errors.hpp"
#include "internal/pmpi.hpp"

#include <mutex>
#include <unordered_map>
#include <vector>

namespace {

// Synonyms (MPI_LONG_LONG, MPI_C_COMPLEX) share their object, so they are
// not listed again.
void *const kPredefined[] = {
    MPI_COMM_WORLD, MPI_COMM_SELF, MPI_GROUP_EMPTY, MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, MPI_INFO_ENV,
    MPI_MESSAGE_NO_PROC,
    // Ops
    MPI_MAX, MPI_MIN, MPI_SUM, MPI_PROD, MPI_LAND, MPI_BAND, MPI_LOR, MPI_BOR, MPI_LXOR, MPI_BXOR, MPI_MAXLOC,
    MPI_MINLOC, MPI_REPLACE, MPI_NO_OP,
    // Fortran datatypes
    MPI_INTEGER, MPI_REAL, MPI_DOUBLE_PRECISION, MPI_COMPLEX, MPI_DOUBLE_COMPLEX, MPI_LOGICAL, MPI_CHARACTER,
    MPI_2INTEGER, MPI_2REAL, MPI_2DOUBLE_PRECISION, MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8,
    MPI_INTEGER16, MPI_REAL2, MPI_REAL4, MPI_REAL8, MPI_REAL16, MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32,
    // C datatypes (usable from Fortran too)
    MPI_CHAR, MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_BYTE, MPI_WCHAR, MPI_SHORT, MPI_UNSIGNED_SHORT, MPI_INT,
    MPI_UNSIGNED, MPI_LONG, MPI_UNSIGNED_LONG, MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG, MPI_FLOAT, MPI_DOUBLE,
    MPI_LONG_DOUBLE, MPI_PACKED, MPI_C_BOOL, MPI_INT8_T, MPI_INT16_T, MPI_INT32_T, MPI_INT64_T, MPI_UINT8_T,
    MPI_UINT16_T, MPI_UINT32_T, MPI_UINT64_T, MPI_AINT, MPI_OFFSET, MPI_COUNT, MPI_C_FLOAT_COMPLEX,
    MPI_C_DOUBLE_COMPLEX, MPI_C_LONG_DOUBLE_COMPLEX, MPI_FLOAT_INT, MPI_DOUBLE_INT, MPI_LONG_INT, MPI_2INT,
    MPI_SHORT_INT, MPI_LONG_DOUBLE_INT, MPI_CXX_BOOL, MPI_CXX_FLOAT_COMPLEX, MPI_CXX_DOUBLE_COMPLEX,
    MPI_CXX_LONG_DOUBLE_COMPLEX, MPI_LB, MPI_UB};

struct HandleTable {
    std::mutex mu;
    std::vector<void *> handles{nullptr};
    std::unordered_map<void *, MPI_Fint> index;

    HandleTable() {
        for (void *h : kPredefined) to_f(h);
    }

    MPI_Fint to_f(void *h) {
        if (!h) return 0;
        std::lock_guard<std::mutex> lk(mu);
        auto [it, fresh] = index.try_emplace(h, static_cast<MPI_Fint>(handles.size()));
        if (fresh) handles.push_back(h);
        return it->second;
    }
    void *to_c(MPI_Fint f) {
        std::lock_guard<std::mutex> lk(mu);
        return f > 0 && static_cast<size_t>(f) < handles.size() ? handles[static_cast<size_t>(f)] : nullptr;
    }
};

HandleTable &table() {
    static HandleTable *t = new HandleTable();
    return *t;
}

}  // namespace

extern "C" {

#define FTMPI_HANDLE_CONVERSION(Kind, Type)                                                                            \
    MPI_Fint MPI_##Kind##_c2f(Type h) noexcept {                                                                       \
        return table().to_f(h);                                                                                        \
    }                                                                                                                  \
    Type MPI_##Kind##_f2c(MPI_Fint f) noexcept {                                                                       \
        return static_cast<Type>(table().to_c(f));                                                                     \
    }                                                                                                                  \
    FTMPI_PMPI(Kind##_c2f)                                                                                             \
    FTMPI_PMPI(Kind##_f2c)

FTMPI_HANDLE_CONVERSION(Comm, MPI_Comm)
FTMPI_HANDLE_CONVERSION(Type, MPI_Datatype)
FTMPI_HANDLE_CONVERSION(Group, MPI_Group)
FTMPI_HANDLE_CONVERSION(Op, MPI_Op)
FTMPI_HANDLE_CONVERSION(Request, MPI_Request)
FTMPI_HANDLE_CONVERSION(Errhandler, MPI_Errhandler)
FTMPI_HANDLE_CONVERSION(Info, MPI_Info)
FTMPI_HANDLE_CONVERSION(Message, MPI_Message)
FTMPI_HANDLE_CONVERSION(File, MPI_File)
FTMPI_HANDLE_CONVERSION(Win, MPI_Win)
FTMPI_HANDLE_CONVERSION(Session, MPI_Session)

int MPI_Status_c2f(const MPI_Status *c, MPI_Fint *f) noexcept {
    if (!c || !f) return MPI_ERR_ARG;
    f[0] = c->MPI_SOURCE;
    f[1] = c->MPI_TAG;
    f[2] = c->MPI_ERROR;
    f[3] = c->ftmpi_cancelled;
    f[4] = static_cast<MPI_Fint>(c->ftmpi_count & 0xffffffffu);
    f[5] = static_cast<MPI_Fint>(c->ftmpi_count >> 32);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Status_c2f)

int MPI_Status_f2c(const MPI_Fint *f, MPI_Status *c) noexcept {
    if (!c || !f) return MPI_ERR_ARG;
    c->MPI_SOURCE = f[0];
    c->MPI_TAG = f[1];
    c->MPI_ERROR = f[2];
    c->ftmpi_cancelled = f[3];
    c->ftmpi_count =
        static_cast<size_t>(static_cast<uint32_t>(f[4])) | (static_cast<size_t>(static_cast<uint32_t>(f[5])) << 32);
    return MPI_SUCCESS;
}
FTMPI_PMPI(Status_f2c)

// The mpi_f08 status holds the same MPI_F_STATUS_SIZE integers as the
// array form, so the f08 conversions go through it.
static_assert(sizeof(MPI_F08_status) == MPI_F_STATUS_SIZE * sizeof(MPI_Fint));

int MPI_Status_f2f08(const MPI_Fint *f, MPI_F08_status *f08) noexcept {
    if (!f || !f08) return ftmpi::comm::raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_f2f08");
    f08->MPI_SOURCE = f[0];
    f08->MPI_TAG = f[1];
    f08->MPI_ERROR = f[2];
    for (int i = 3; i < MPI_F_STATUS_SIZE; ++i) f08->ftmpi_internal[i - 3] = f[i];
    return MPI_SUCCESS;
}
FTMPI_PMPI(Status_f2f08)

int MPI_Status_f082f(const MPI_F08_status *f08, MPI_Fint *f) noexcept {
    if (!f || !f08) return ftmpi::comm::raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_f082f");
    f[0] = f08->MPI_SOURCE;
    f[1] = f08->MPI_TAG;
    f[2] = f08->MPI_ERROR;
    for (int i = 3; i < MPI_F_STATUS_SIZE; ++i) f[i] = f08->ftmpi_internal[i - 3];
    return MPI_SUCCESS;
}
FTMPI_PMPI(Status_f082f)

int MPI_Status_c2f08(const MPI_Status *c, MPI_F08_status *f08) noexcept {
    if (!c || !f08) return ftmpi::comm::raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_c2f08");
    MPI_Fint f[MPI_F_STATUS_SIZE];
    PMPI_Status_c2f(c, f);
    return PMPI_Status_f2f08(f, f08);
}
FTMPI_PMPI(Status_c2f08)

int MPI_Status_f082c(const MPI_F08_status *f08, MPI_Status *c) noexcept {
    if (!c || !f08) return ftmpi::comm::raise(MPI_COMM_NULL, MPI_ERR_ARG, "MPI_Status_f082c");
    MPI_Fint f[MPI_F_STATUS_SIZE];
    PMPI_Status_f082f(f08, f);
    return PMPI_Status_f2c(f, c);
}
FTMPI_PMPI(Status_f082c)

}  // extern "C"
