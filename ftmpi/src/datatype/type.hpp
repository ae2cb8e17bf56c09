// The datatype object behind an MPI_Datatype handle, and the engine's C++
// interface: one constructor per file (contiguous.cpp, vector.cpp, …), each
// building the new type's Layout, Signature and bounds from its children.
// The MPI_* bindings (mpi_*.cpp) check arguments and call these; the engine
// itself does not need mpi.h, so its unit tests run without the rest of
// libftmpi.
#pragma once

#include "layout.hpp"
#include "signature.hpp"

#include "../internal/predefined_storage.hpp"

#include <atomic>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ftmpi::dt {

// The constructor that made a type (MPI_Type_get_envelope); the bindings map
// these to the MPI_COMBINER_* values of mpi.h.
enum class Combiner : std::uint8_t {
    named,
    dup,
    contiguous,
    vector,
    hvector,
    indexed,
    hindexed,
    indexed_block,
    hindexed_block,
    struct_,
    subarray,
    darray,
    resized,
    f90_real,
    f90_complex,
    f90_integer,
};

}  // namespace ftmpi::dt

struct ftmpi_datatype_s {
    using Aint = ftmpi::dt::Aint;

    bool predefined = false;
    bool committed = false;
    ftmpi::dt::Kind kind = ftmpi::dt::Kind::none;  // the one basic kind of all its data, or none
    ftmpi::dt::Combiner combiner = ftmpi::dt::Combiner::named;

    size_t size = 0;                // bytes of data in one element
    Aint lb = 0, ub = 0;            // extent = ub - lb
    Aint true_lb = 0, true_ub = 0;  // where the data really is
    size_t align = 1;               // largest alignment of its basic types (struct padding)
    // Bounds set by MPI_Type_create_resized somewhere inside: like MPI-1's
    // MPI_LB/MPI_UB markers they win over the data's bounds in every type
    // built from this one, and stop a struct's alignment padding (§4.1.7).
    bool explicit_lb = false, explicit_ub = false;

    ftmpi::dt::Layout layout;  // where the bytes are (compacted by commit)
    ftmpi::dt::Signature sig;  // which basic elements they are

    std::string name;

    // Arguments of the constructor, for MPI_Type_get_contents. Child types are
    // retained while this type lives. A large-count (`_c`) constructor given
    // a value no int holds keeps its integer arguments, then its byte
    // displacements, in large_counts instead (MPI-4.0 §5.1.13's
    // array_of_large_counts); subarray keeps ndims and order in ints.
    std::vector<int> ints;
    std::vector<Aint> aints;
    std::vector<std::int64_t> large_counts;
    std::vector<ftmpi_datatype_s *> types;

    std::atomic<int> refs{1};

    Aint extent() const { return ub - lb; }
    Aint true_extent() const { return true_ub - true_lb; }

    ftmpi_datatype_s() = default;
    ftmpi_datatype_s(const ftmpi_datatype_s &) = delete;
    ftmpi_datatype_s &operator=(const ftmpi_datatype_s &) = delete;
    ~ftmpi_datatype_s();
};
// The fixed-size storage of the predefined datatypes (MPI_INT is
// &ftmpi_dt_int.object; internal/predefined_storage.hpp).
FTMPI_PREDEFINED_STORAGE(ftmpi_predefined_datatype_u, ftmpi_datatype_s, 512);

namespace ftmpi::dt {

using Type = ftmpi_datatype_s;

// A count, block length or element displacement as the large-count (`_c`)
// constructors take it (MPI_Count); the int constructors' values widen to it.
using Count = std::int64_t;

// Constructors. Arguments are already checked (counts >= 0, types valid);
// each returns a new uncommitted type holding one reference. Counts, sizes
// and extents are 64-bit throughout, so a type may exceed INT_MAX bytes.
// The array forms take int arrays (the MPI-1 calls) or Count arrays (`_c`).
Type *make_contiguous(Count count, Type *old);
Type *make_vector(Count count, Count blocklen, Count stride, Type *old);  // stride in elements of old
Type *make_hvector(Count count, Count blocklen, Aint stride, Type *old);  // stride in bytes
Type *make_indexed(std::span<const int> blocklens, std::span<const int> disps, Type *old);
Type *make_indexed(std::span<const Count> blocklens, std::span<const Count> disps, Type *old);
Type *make_hindexed(std::span<const int> blocklens, std::span<const Aint> disps, Type *old);
Type *make_hindexed(std::span<const Count> blocklens, std::span<const Aint> disps, Type *old);
Type *make_indexed_block(int blocklen, std::span<const int> disps, Type *old);
Type *make_indexed_block(Count blocklen, std::span<const Count> disps, Type *old);
Type *make_hindexed_block(Count blocklen, std::span<const Aint> disps, Type *old);
Type *make_struct(std::span<const int> blocklens, std::span<const Aint> disps, std::span<Type *const> types);
Type *make_struct(std::span<const Count> blocklens, std::span<const Aint> disps, std::span<Type *const> types);
Type *make_resized(Type *old, Aint lb, Aint extent);
Type *make_dup(Type *old);
// MPI_Type_create_f90_*: a predefined copy of a named Fortran type that
// reports `combiner` (one of the f90_*) and `params` ((p, r) or (r)).
Type *make_f90(Combiner, const Type &named, std::span<const int> params);
enum class Order { c, fortran };
Type *make_subarray(std::span<const int> sizes, std::span<const int> subsizes, std::span<const int> starts, Order,
                    Type *old);
Type *make_subarray(std::span<const Count> sizes, std::span<const Count> subsizes, std::span<const Count> starts, Order,
                    Type *old);
enum class Distribute { block, cyclic, none };
constexpr int darg_default = -1;  // MPI_DISTRIBUTE_DFLT_DARG
// Returns null when the distribution cannot be laid out (too few blocks for
// the array, MPI_ERR_ARG at the binding).
Type *make_darray(int size, int rank, std::span<const int> gsizes, std::span<const Distribute> distribs,
                  std::span<const int> dargs, std::span<const int> psizes, Order, Type *old);

// Keeps a constructor's arguments for MPI_Type_get_contents: `integers` as
// ints when each fits one, else integers and `addresses` as large counts.
void record_arguments(Type *, std::vector<Count> integers, std::vector<Aint> addresses = {});

// MPI_Type_commit: compacts the layout. Idempotent.
void commit(Type *);

// Reference counting: the user's handle is one reference, each pending
// operation and each derived type that names this one as a child another.
void retain(Type *);
void release(Type *);

// One block of a general (h)indexed placement: `count` copies of the old
// type, back to back, from byte `disp`.
struct Placement {
    Aint disp = 0;
    size_t count = 0;
};
// What every constructor but struct does: place copies of `old`; fills
// layout, signature, bounds, size and kind. Regular placements (vector) go
// through make_regular so they fold instead of being listed.
Type *make_placed(Combiner, Type *old, std::span<const Placement>);
Type *make_regular(Combiner, Type *old, size_t count, size_t blocklen, Aint stride_bytes);

// The predefined type for a kind (tests and the op part use it).
Type *predefined(Kind);

}  // namespace ftmpi::dt
