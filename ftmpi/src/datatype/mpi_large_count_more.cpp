// The MPI-4 large-count (`_c`) datatype calls beyond mpi_large_count.cpp:
// the constructors that take arrays, hvector, external32 packing and the
// envelope and contents queries. Counts, block lengths and element
// displacements that fit an int go to the int call (byte displacements are
// MPI_Aint there already); others are refused with MPI_ERR_COUNT. Every
// type is built by an int constructor, so the queries report no large
// counts.
#include "internal/large_count.hpp"

#include <vector>

using ftmpi::large_count::all_fit;
using ftmpi::large_count::narrow;
using ftmpi::large_count::narrow_all;
using ftmpi::large_count::too_large;
using ftmpi::large_count::without_exceptions;

namespace {

// `n` entries of each array as ints, or false.
bool narrow_arrays(int n, std::initializer_list<std::pair<const MPI_Count *, std::vector<int> *>> arrays) {
    for (const auto &[values, out] : arrays)
        if (!narrow_all(values, n, out)) return false;
    return true;
}

}  // namespace

FTMPI_LARGE_COUNT(Type_create_hvector, MPI_COMM_NULL,
                  (MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                   MPI_Datatype *newtype),
                  (count, blocklength), (narrow(count), narrow(blocklength), stride, oldtype, newtype))

extern "C" int MPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                  const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                  MPI_Datatype *newtype) noexcept {
    return without_exceptions(MPI_COMM_NULL, "MPI_Type_indexed_c", [&] {
        std::vector<int> lengths, displs;
        if (!all_fit(count) ||
            !narrow_arrays(narrow(count), {{array_of_blocklengths, &lengths}, {array_of_displacements, &displs}}))
            return too_large(MPI_COMM_NULL, "MPI_Type_indexed_c");
        return MPI_Type_indexed(narrow(count), ftmpi::large_count::data_or_null(array_of_blocklengths, lengths),
                                ftmpi::large_count::data_or_null(array_of_displacements, displs), oldtype, newtype);
    });
}
FTMPI_PMPI(Type_indexed_c)

extern "C" int MPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                          const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                          MPI_Datatype *newtype) noexcept {
    return without_exceptions(MPI_COMM_NULL, "MPI_Type_create_hindexed_c", [&] {
        std::vector<int> lengths;
        if (!all_fit(count) || !narrow_arrays(narrow(count), {{array_of_blocklengths, &lengths}}))
            return too_large(MPI_COMM_NULL, "MPI_Type_create_hindexed_c");
        return MPI_Type_create_hindexed(narrow(count), ftmpi::large_count::data_or_null(array_of_blocklengths, lengths),
                                        array_of_displacements, oldtype, newtype);
    });
}
FTMPI_PMPI(Type_create_hindexed_c)

FTMPI_LARGE_COUNT(Type_create_hindexed_block, MPI_COMM_NULL,
                  (MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[],
                   MPI_Datatype oldtype, MPI_Datatype *newtype),
                  (count, blocklength), (narrow(count), narrow(blocklength), array_of_displacements, oldtype, newtype))

extern "C" int MPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength,
                                               const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                               MPI_Datatype *newtype) noexcept {
    return without_exceptions(MPI_COMM_NULL, "MPI_Type_create_indexed_block_c", [&] {
        std::vector<int> displs;
        if (!all_fit(count, blocklength) || !narrow_arrays(narrow(count), {{array_of_displacements, &displs}}))
            return too_large(MPI_COMM_NULL, "MPI_Type_create_indexed_block_c");
        return MPI_Type_create_indexed_block(narrow(count), narrow(blocklength),
                                             ftmpi::large_count::data_or_null(array_of_displacements, displs), oldtype,
                                             newtype);
    });
}
FTMPI_PMPI(Type_create_indexed_block_c)

extern "C" int MPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                        const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
                                        MPI_Datatype *newtype) noexcept {
    return without_exceptions(MPI_COMM_NULL, "MPI_Type_create_struct_c", [&] {
        std::vector<int> lengths;
        if (!all_fit(count) || !narrow_arrays(narrow(count), {{array_of_blocklengths, &lengths}}))
            return too_large(MPI_COMM_NULL, "MPI_Type_create_struct_c");
        return MPI_Type_create_struct(narrow(count), ftmpi::large_count::data_or_null(array_of_blocklengths, lengths),
                                      array_of_displacements, array_of_types, newtype);
    });
}
FTMPI_PMPI(Type_create_struct_c)

extern "C" int MPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[],
                                          const MPI_Count array_of_subsizes[], const MPI_Count array_of_starts[],
                                          int order, MPI_Datatype oldtype, MPI_Datatype *newtype) noexcept {
    return without_exceptions(MPI_COMM_NULL, "MPI_Type_create_subarray_c", [&] {
        std::vector<int> sizes, subsizes, starts;
        if (!narrow_arrays(ndims,
                           {{array_of_sizes, &sizes}, {array_of_subsizes, &subsizes}, {array_of_starts, &starts}}))
            return too_large(MPI_COMM_NULL, "MPI_Type_create_subarray_c");
        return MPI_Type_create_subarray(ndims, ftmpi::large_count::data_or_null(array_of_sizes, sizes),
                                        ftmpi::large_count::data_or_null(array_of_subsizes, subsizes),
                                        ftmpi::large_count::data_or_null(array_of_starts, starts), order, oldtype,
                                        newtype);
    });
}
FTMPI_PMPI(Type_create_subarray_c)

extern "C" int MPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                                        const int array_of_distribs[], const int array_of_dargs[],
                                        const int array_of_psizes[], int order, MPI_Datatype oldtype,
                                        MPI_Datatype *newtype) noexcept {
    return without_exceptions(MPI_COMM_NULL, "MPI_Type_create_darray_c", [&] {
        std::vector<int> gsizes;
        if (!narrow_arrays(ndims, {{array_of_gsizes, &gsizes}}))
            return too_large(MPI_COMM_NULL, "MPI_Type_create_darray_c");
        return MPI_Type_create_darray(size, rank, ndims, ftmpi::large_count::data_or_null(array_of_gsizes, gsizes),
                                      array_of_distribs, array_of_dargs, array_of_psizes, order, oldtype, newtype);
    });
}
FTMPI_PMPI(Type_create_darray_c)

// external32: the buffer sizes and positions are MPI_Aint in the int calls.
FTMPI_LARGE_COUNT(Pack_external, MPI_COMM_NULL,
                  (const char datarep[], const void *inbuf, MPI_Count incount, MPI_Datatype datatype, void *outbuf,
                   MPI_Count outsize, MPI_Count *position),
                  (incount), (datarep, inbuf, narrow(incount), datatype, outbuf, outsize, position))

FTMPI_LARGE_COUNT(Unpack_external, MPI_COMM_NULL,
                  (const char datarep[], const void *inbuf, MPI_Count insize, MPI_Count *position, void *outbuf,
                   MPI_Count outcount, MPI_Datatype datatype),
                  (outcount), (datarep, inbuf, insize, position, outbuf, narrow(outcount), datatype))

FTMPI_LARGE_COUNT(Pack_external_size, MPI_COMM_NULL,
                  (const char datarep[], MPI_Count incount, MPI_Datatype datatype, MPI_Count *size), (incount),
                  (datarep, narrow(incount), datatype, size))

extern "C" int MPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count *num_integers, MPI_Count *num_addresses,
                                       MPI_Count *num_large_counts, MPI_Count *num_datatypes, int *combiner) noexcept {
    if (!num_integers || !num_addresses || !num_large_counts || !num_datatypes)
        return ftmpi::comm::raise_unattached(MPI_ERR_ARG, "MPI_Type_get_envelope_c");
    int integers = 0, addresses = 0, datatypes = 0;
    const int e = MPI_Type_get_envelope(datatype, &integers, &addresses, &datatypes, combiner);
    if (e != MPI_SUCCESS) return e;
    *num_integers = integers;
    *num_addresses = addresses;
    *num_large_counts = 0;
    *num_datatypes = datatypes;
    return MPI_SUCCESS;
}
FTMPI_PMPI(Type_get_envelope_c)

extern "C" int MPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                                       MPI_Count, MPI_Count max_datatypes, int array_of_integers[],
                                       MPI_Aint array_of_addresses[], MPI_Count[],
                                       MPI_Datatype array_of_datatypes[]) noexcept {
    // Past INT_MAX a maximum is no limit: the contents are far shorter.
    const auto limit = [](MPI_Count n) { return n > INT_MAX ? INT_MAX : narrow(n); };
    return MPI_Type_get_contents(datatype, limit(max_integers), limit(max_addresses), limit(max_datatypes),
                                 array_of_integers, array_of_addresses, array_of_datatypes);
}
FTMPI_PMPI(Type_get_contents_c)
