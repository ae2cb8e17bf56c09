// MPI_*_c2f/f2c: Fortran integers for C handles, as
// indexes into one table of every handle ever converted (0 is the null
// handle). Enough for C libraries that store handles as MPI_Fint.
#include "internal/pmpi.hpp"

#include <mutex>
#include <unordered_map>
#include <vector>

namespace {

struct HandleTable {
    std::mutex mu;
    std::vector<void *> handles{nullptr};
    std::unordered_map<void *, MPI_Fint> index;

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
FTMPI_HANDLE_CONVERSION(Win, MPI_Win)

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

}  // extern "C"
