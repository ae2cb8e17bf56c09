// Communicator attributes from Fortran: values are INTEGER(MPI_ADDRESS_KIND)
// in Fortran and pointers in C, so a value set from Fortran is stored as the
// pointer itself. Keyvals created from Fortran call Fortran copy and delete
// subroutines through one pair of C trampolines, which find the Fortran
// routines (and the program's EXTRA_STATE) in the keyval's extra state.
// MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN and MPI_COMM_NULL_DELETE_FN are
// defined here as Fortran-callable routines, so they take the same path.
#include "support.hpp"

#include <memory>
#include <mutex>
#include <vector>

namespace {

// Fortran values of C attribute pointers: the predefined attributes point
// at an int; others hold the Fortran value itself (set by MPI_COMM_SET_ATTR).
bool points_to_int(int keyval) {
    switch (keyval) {
    case MPI_TAG_UB:
    case MPI_IO:
    case MPI_WTIME_IS_GLOBAL:
    case MPI_APPNUM:
    case MPI_UNIVERSE_SIZE:
    case MPI_LASTUSEDCODE:
    case FT_MPI_LIST_NUM_FAILED:
    case FT_MPI_COM_NUM_FAILED:
    case MPIX_FT:
    case FTMPI_RESTARTED:
    case FTMPI_INCARNATION: return true;
    default: return false;
    }
}

// SUBROUTINE COPY_FN(OLDCOMM, COMM_KEYVAL, EXTRA_STATE, ATTRIBUTE_VAL_IN,
//                    ATTRIBUTE_VAL_OUT, FLAG, IERROR)
using FortranCopyFunction = void (*)(const MPI_Fint *, const MPI_Fint *, const MPI_Aint *, const MPI_Aint *, MPI_Aint *,
                                     MPI_Fint *, MPI_Fint *);
// SUBROUTINE DELETE_FN(COMM, COMM_KEYVAL, ATTRIBUTE_VAL, EXTRA_STATE, IERROR)
using FortranDeleteFunction = void (*)(const MPI_Fint *, const MPI_Fint *, const MPI_Aint *, const MPI_Aint *,
                                       MPI_Fint *);

// The C extra state of a keyval created from Fortran; lives as long as the
// process (a freed keyval may still have attributes whose deletion calls
// it), held by `keyvals` so that it stays reachable (no leak report).
struct FortranKeyval {
    FortranCopyFunction copy;
    FortranDeleteFunction del;
    MPI_Aint extra_state;
};

struct KeyvalRegistry {
    std::mutex mu;
    std::vector<std::unique_ptr<FortranKeyval>> all;

    FortranKeyval *add(FortranCopyFunction copy, FortranDeleteFunction del, MPI_Aint extra_state) {
        std::lock_guard<std::mutex> lk(mu);
        all.push_back(std::make_unique<FortranKeyval>(FortranKeyval{copy, del, extra_state}));
        return all.back().get();
    }
};
KeyvalRegistry &keyvals() {
    static KeyvalRegistry *r = new KeyvalRegistry();
    return *r;
}

int copy_from_fortran(MPI_Comm oldcomm, int keyval, void *extra_state, void *value_in, void *value_out,
                      int *flag) noexcept {
    const auto *k = static_cast<const FortranKeyval *>(extra_state);
    const MPI_Fint fcomm = MPI_Comm_c2f(oldcomm), fkeyval = keyval;
    const MPI_Aint in = reinterpret_cast<MPI_Aint>(value_in);
    MPI_Aint out = 0;
    MPI_Fint fflag = 0, ierror = MPI_SUCCESS;
    k->copy(&fcomm, &fkeyval, &k->extra_state, &in, &out, &fflag, &ierror);
    *flag = fflag != 0;
    if (*flag) *static_cast<void **>(value_out) = reinterpret_cast<void *>(out);
    return ierror;
}

int delete_from_fortran(MPI_Comm comm, int keyval, void *value, void *extra_state) noexcept {
    const auto *k = static_cast<const FortranKeyval *>(extra_state);
    const MPI_Fint fcomm = MPI_Comm_c2f(comm), fkeyval = keyval;
    const MPI_Aint v = reinterpret_cast<MPI_Aint>(value);
    MPI_Fint ierror = MPI_SUCCESS;
    k->del(&fcomm, &fkeyval, &v, &k->extra_state, &ierror);
    return ierror;
}

}  // namespace

extern "C" {

void mpi_comm_null_copy_fn_(const MPI_Fint *, const MPI_Fint *, const MPI_Aint *, const MPI_Aint *, MPI_Aint *,
                            MPI_Fint *flag, MPI_Fint *ierror) noexcept {
    *flag = 0;
    *ierror = MPI_SUCCESS;
}

void mpi_comm_dup_fn_(const MPI_Fint *, const MPI_Fint *, const MPI_Aint *, const MPI_Aint *value_in,
                      MPI_Aint *value_out, MPI_Fint *flag, MPI_Fint *ierror) noexcept {
    *value_out = *value_in;
    *flag = 1;
    *ierror = MPI_SUCCESS;
}

void mpi_comm_null_delete_fn_(const MPI_Fint *, const MPI_Fint *, const MPI_Aint *, const MPI_Aint *,
                              MPI_Fint *ierror) noexcept {
    *ierror = MPI_SUCCESS;
}

void mpi_comm_create_keyval_(FortranCopyFunction copy, FortranDeleteFunction del, MPI_Fint *keyval,
                             const MPI_Aint *extra_state, MPI_Fint *ierror) noexcept {
    try {
        FortranKeyval *k = keyvals().add(copy, del, *extra_state);
        *ierror = MPI_Comm_create_keyval(copy_from_fortran, delete_from_fortran, keyval, k);
    } catch (...) {
        *ierror = MPI_ERR_NO_MEM;
    }
}
FTMPI_F_PMPI(mpi_comm_create_keyval)

void mpi_comm_get_attr_(const MPI_Fint *comm, const MPI_Fint *keyval, MPI_Aint *value, MPI_Fint *flag,
                        MPI_Fint *ierror) noexcept {
    void *c_value = nullptr;
    int c_flag = 0;
    const int rc = MPI_Comm_get_attr(MPI_Comm_f2c(*comm), *keyval, &c_value, &c_flag);
    if (rc == MPI_SUCCESS) {
        *flag = ftmpi::fortran::to_logical(c_flag);
        if (c_flag)
            *value = points_to_int(*keyval) ? *static_cast<int *>(c_value) : reinterpret_cast<MPI_Aint>(c_value);
    }
    *ierror = rc;
}
FTMPI_F_PMPI(mpi_comm_get_attr)

void mpi_comm_set_attr_(const MPI_Fint *comm, const MPI_Fint *keyval, const MPI_Aint *value,
                        MPI_Fint *ierror) noexcept {
    *ierror = MPI_Comm_set_attr(MPI_Comm_f2c(*comm), *keyval, reinterpret_cast<void *>(*value));
}
FTMPI_F_PMPI(mpi_comm_set_attr)

}  // extern "C"
