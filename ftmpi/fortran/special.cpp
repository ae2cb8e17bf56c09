// The Fortran bindings that do not fit bindings.txt's table: calls without
// IERROR or with a different shape in Fortran (MPI_INIT, MPI_WTIME,
// MPI_BUFFER_DETACH, MPI_INFO_GET) and user reduction functions written in
// Fortran (MPI_OP_CREATE). Attributes are in attributes.cpp.
#include "support.hpp"

#include <array>
#include <atomic>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace {

// A Fortran user function: SUBROUTINE F(INVEC, INOUTVEC, LEN, DATATYPE).
using FortranUserFunction = void (*)(void *, void *, MPI_Fint *, MPI_Fint *);

// C's MPI_User_function has no user-data argument, so each Fortran
// function gets one of a fixed set of C trampolines, each reading its own
// slot. kUserOpSlots Fortran ops can exist at a time; MPI_OP_FREE frees a
// slot.
constexpr size_t kUserOpSlots = 64;
std::array<std::atomic<FortranUserFunction>, kUserOpSlots> user_functions{};

template <size_t Slot>
void call_fortran_op(void *in, void *inout, int *len, MPI_Datatype *datatype) {
    MPI_Fint flen = *len;
    MPI_Fint ftype = MPI_Type_c2f(*datatype);
    user_functions[Slot].load()(in, inout, &flen, &ftype);
}

template <size_t... Slots>
constexpr std::array<MPI_User_function *, sizeof...(Slots)> make_trampolines(std::index_sequence<Slots...>) {
    return {&call_fortran_op<Slots>...};
}
constexpr auto trampolines = make_trampolines(std::make_index_sequence<kUserOpSlots>());

struct SlotTable {
    std::mutex mu;
    std::unordered_map<MPI_Op, size_t> slot_of;
};
SlotTable &slots() {
    static SlotTable *t = new SlotTable();
    return *t;
}

}  // namespace

extern "C" {

void mpi_init_(MPI_Fint *ierror) noexcept {
    *ierror = MPI_Init(nullptr, nullptr);
}
FTMPI_F_PMPI(mpi_init)

void mpi_init_thread_(const MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror) noexcept {
    *ierror = MPI_Init_thread(nullptr, nullptr, *required, provided);
}
FTMPI_F_PMPI(mpi_init_thread)

double mpi_wtime_() noexcept {
    return MPI_Wtime();
}
FTMPI_F_PMPI(mpi_wtime)

double mpi_wtick_() noexcept {
    return MPI_Wtick();
}
FTMPI_F_PMPI(mpi_wtick)

// The Fortran buffer argument is the buffer itself; its C address is of no
// use to a Fortran caller.
void mpi_buffer_detach_(void *, MPI_Fint *size, MPI_Fint *ierror) noexcept {
    void *addr = nullptr;
    *ierror = MPI_Buffer_detach(&addr, size);
}
FTMPI_F_PMPI(mpi_buffer_detach)

void mpi_info_get_(const MPI_Fint *info, const char *key, const MPI_Fint *valuelen, char *value, MPI_Fint *flag,
                   MPI_Fint *ierror, size_t key_len, size_t value_len) noexcept {
    try {
        const std::string c_key = ftmpi::fortran::from_fortran(key, key_len);
        std::string c_value(static_cast<size_t>(*valuelen > 0 ? *valuelen : 0) + 1, '\0');
        int c_flag = 0;
        const int rc = MPI_Info_get(MPI_Info_f2c(*info), c_key.c_str(), *valuelen, c_value.data(), &c_flag);
        if (rc == MPI_SUCCESS) {
            *flag = ftmpi::fortran::to_logical(c_flag);
            if (c_flag) ftmpi::fortran::to_fortran(c_value.c_str(), value, value_len);
        }
        *ierror = rc;
    } catch (...) {
        *ierror = MPI_ERR_NO_MEM;
    }
}
FTMPI_F_PMPI(mpi_info_get)

void mpi_op_create_(FortranUserFunction function, const MPI_Fint *commute, MPI_Fint *op, MPI_Fint *ierror) noexcept {
    try {
        auto &t = slots();
        std::lock_guard<std::mutex> lk(t.mu);
        size_t slot = kUserOpSlots;
        for (size_t i = 0; i < kUserOpSlots; ++i)
            if (!user_functions[i].load()) {
                slot = i;
                break;
            }
        if (slot == kUserOpSlots) {
            *ierror = MPI_ERR_NO_MEM;  // all trampolines in use
            return;
        }
        MPI_Op c_op = MPI_OP_NULL;
        user_functions[slot].store(function);
        const int rc = MPI_Op_create(trampolines[slot], *commute != 0, &c_op);
        if (rc == MPI_SUCCESS) {
            t.slot_of[c_op] = slot;
            *op = MPI_Op_c2f(c_op);
        } else {
            user_functions[slot].store(nullptr);
        }
        *ierror = rc;
    } catch (...) {
        *ierror = MPI_ERR_NO_MEM;
    }
}
FTMPI_F_PMPI(mpi_op_create)

void mpi_op_free_(MPI_Fint *op, MPI_Fint *ierror) noexcept {
    MPI_Op c_op = MPI_Op_f2c(*op);
    const MPI_Op freed = c_op;
    const int rc = MPI_Op_free(&c_op);
    if (rc == MPI_SUCCESS) {
        auto &t = slots();
        std::lock_guard<std::mutex> lk(t.mu);
        if (auto it = t.slot_of.find(freed); it != t.slot_of.end()) {
            user_functions[it->second].store(nullptr);
            t.slot_of.erase(it);
        }
    }
    *op = MPI_Op_c2f(c_op);
    *ierror = rc;
}
FTMPI_F_PMPI(mpi_op_free)

}  // extern "C"
