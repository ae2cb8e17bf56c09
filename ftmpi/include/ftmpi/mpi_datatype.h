/* ftmpi/mpi_datatype.h — part of mpi.h: Datatypes: constructors, queries, pack/unpack, and the MPI-1 names removed in MPI-3.0.
 * Include <mpi.h>, not this file: it uses mpi.h's types and FTMPI_API, and
 * mpi.h includes it inside its extern "C" block. */
#ifndef FTMPI_MPI_DATATYPE_H
#define FTMPI_MPI_DATATYPE_H
#ifndef FTMPI_MPI_H
#error "include <mpi.h> instead of ftmpi/mpi_datatype.h"
#endif

/* Datatypes */
FTMPI_API(Type_contiguous, (int count, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_vector, (int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_create_hvector,
          (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_indexed,
          (int count, const int array_of_blocklengths[], const int array_of_displacements[], MPI_Datatype oldtype,
           MPI_Datatype *newtype))
FTMPI_API(Type_create_hindexed,
          (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
           MPI_Datatype *newtype))
FTMPI_API(Type_create_indexed_block,
          (int count, int blocklength, const int array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_create_hindexed_block,
          (int count, int blocklength, const MPI_Aint array_of_displacements[], MPI_Datatype oldtype,
           MPI_Datatype *newtype))
FTMPI_API(Type_create_struct,
          (int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
           const MPI_Datatype array_of_types[], MPI_Datatype *newtype))
FTMPI_API(Type_create_subarray,
          (int ndims, const int array_of_sizes[], const int array_of_subsizes[], const int array_of_starts[], int order,
           MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_create_darray,
          (int size, int rank, int ndims, const int array_of_gsizes[], const int array_of_distribs[],
           const int array_of_dargs[], const int array_of_psizes[], int order, MPI_Datatype oldtype,
           MPI_Datatype *newtype))
FTMPI_API(Type_create_resized, (MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype *newtype))
FTMPI_API(Type_dup, (MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_commit, (MPI_Datatype * datatype))
FTMPI_API(Type_free, (MPI_Datatype * datatype))
FTMPI_API(Type_size, (MPI_Datatype datatype, int *size))
FTMPI_API(Type_size_x, (MPI_Datatype datatype, MPI_Count *size))
FTMPI_API(Type_get_extent, (MPI_Datatype datatype, MPI_Aint *lb, MPI_Aint *extent))
FTMPI_API(Type_get_extent_x, (MPI_Datatype datatype, MPI_Count *lb, MPI_Count *extent))
FTMPI_API(Type_get_true_extent, (MPI_Datatype datatype, MPI_Aint *true_lb, MPI_Aint *true_extent))
FTMPI_API(Type_get_true_extent_x, (MPI_Datatype datatype, MPI_Count *true_lb, MPI_Count *true_extent))
FTMPI_API(Type_get_envelope,
          (MPI_Datatype datatype, int *num_integers, int *num_addresses, int *num_datatypes, int *combiner))
FTMPI_API(Type_get_contents,
          (MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes, int array_of_integers[],
           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]))
FTMPI_API(Type_set_name, (MPI_Datatype datatype, const char *type_name))
FTMPI_API(Type_get_name, (MPI_Datatype datatype, char *type_name, int *resultlen))
FTMPI_API(Type_match_size, (int typeclass, int size, MPI_Datatype *datatype))
/* MPI-4.1: the pair type (MPI_FLOAT_INT, ...) of a value and an index type,
 * or MPI_DATATYPE_NULL when there is none. */
FTMPI_API(Type_get_value_index, (MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype *pair_type))
FTMPI_API(Type_create_keyval,
          (MPI_Type_copy_attr_function * type_copy_attr_fn, MPI_Type_delete_attr_function *type_delete_attr_fn,
           int *type_keyval, void *extra_state))
FTMPI_API(Type_free_keyval, (int *type_keyval))
FTMPI_API(Type_set_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val))
FTMPI_API(Type_get_attr, (MPI_Datatype datatype, int type_keyval, void *attribute_val, int *flag))
FTMPI_API(Type_delete_attr, (MPI_Datatype datatype, int type_keyval))
FTMPI_API(Get_address, (const void *location, MPI_Aint *address))
FTMPI_API(Pack,
          (const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize, int *position,
           MPI_Comm comm))
FTMPI_API(Unpack,
          (const void *inbuf, int insize, int *position, void *outbuf, int outcount, MPI_Datatype datatype,
           MPI_Comm comm))
FTMPI_API(Pack_size, (int incount, MPI_Datatype datatype, MPI_Comm comm, int *size))
FTMPI_API(Pack_external,
          (const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, MPI_Aint outsize,
           MPI_Aint *position))
FTMPI_API(Unpack_external,
          (const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position, void *outbuf, int outcount,
           MPI_Datatype datatype))
FTMPI_API(Pack_external_size, (const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size))
FTMPI_API(Type_create_f90_integer, (int r, MPI_Datatype *newtype))
FTMPI_API(Type_create_f90_real, (int p, int r, MPI_Datatype *newtype))
FTMPI_API(Type_create_f90_complex, (int p, int r, MPI_Datatype *newtype))
/* MPI-1 names (removed in MPI-3.0; MPICH still ships them). */
FTMPI_API(Type_extent, (MPI_Datatype datatype, MPI_Aint *extent))
FTMPI_API(Type_lb, (MPI_Datatype datatype, MPI_Aint *displacement))
FTMPI_API(Type_ub, (MPI_Datatype datatype, MPI_Aint *displacement))
FTMPI_API(Type_hvector, (int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype, MPI_Datatype *newtype))
FTMPI_API(Type_hindexed,
          (int count, int *array_of_blocklengths, MPI_Aint *array_of_displacements, MPI_Datatype oldtype,
           MPI_Datatype *newtype))
FTMPI_API(Type_struct,
          (int count, int *array_of_blocklengths, MPI_Aint *array_of_displacements, MPI_Datatype *array_of_types,
           MPI_Datatype *newtype))
FTMPI_API(Address, (void *location, MPI_Aint *address))
MPI_Aint MPI_Aint_add(MPI_Aint base, MPI_Aint disp) FTMPI_NOEXCEPT;
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) FTMPI_NOEXCEPT;
MPI_Aint MPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) FTMPI_NOEXCEPT;
MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) FTMPI_NOEXCEPT;

#endif /* FTMPI_MPI_DATATYPE_H */
