/* ftmpi/mpi_comm.h — part of mpi.h: Groups, communicators, attributes and topologies.
 * Include <mpi.h>, not this file: it uses mpi.h's types and FTMPI_API, and
 * mpi.h includes it inside its extern "C" block. */
#ifndef FTMPI_MPI_COMM_H
#define FTMPI_MPI_COMM_H
#ifndef FTMPI_MPI_H
#error "include <mpi.h> instead of ftmpi/mpi_comm.h"
#endif

/* Groups */
FTMPI_API(Group_size, (MPI_Group group, int *size))
FTMPI_API(Group_rank, (MPI_Group group, int *rank))
FTMPI_API(Group_translate_ranks, (MPI_Group group1, int n, const int ranks1[], MPI_Group group2, int ranks2[]))
FTMPI_API(Group_compare, (MPI_Group group1, MPI_Group group2, int *result))
FTMPI_API(Group_union, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
FTMPI_API(Group_intersection, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
FTMPI_API(Group_difference, (MPI_Group group1, MPI_Group group2, MPI_Group *newgroup))
FTMPI_API(Group_incl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
FTMPI_API(Group_excl, (MPI_Group group, int n, const int ranks[], MPI_Group *newgroup))
FTMPI_API(Group_range_incl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
FTMPI_API(Group_range_excl, (MPI_Group group, int n, int ranges[][3], MPI_Group *newgroup))
FTMPI_API(Group_free, (MPI_Group * group))

/* Communicators */
FTMPI_API(Comm_size, (MPI_Comm comm, int *size))
FTMPI_API(Comm_rank, (MPI_Comm comm, int *rank))
FTMPI_API(Comm_group, (MPI_Comm comm, MPI_Group *group))
FTMPI_API(Comm_compare, (MPI_Comm comm1, MPI_Comm comm2, int *result))
FTMPI_API(Comm_dup, (MPI_Comm comm, MPI_Comm *newcomm))
FTMPI_API(Comm_dup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm))
FTMPI_API(Comm_idup, (MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request))
FTMPI_API(Comm_idup_with_info, (MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm, MPI_Request *request))
FTMPI_API(Comm_create, (MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm))
FTMPI_API(Comm_create_group, (MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm))
/* MPI-4, without sessions: groups of MPI_COMM_WORLD's processes. */
FTMPI_API(Comm_create_from_group,
          (MPI_Group group, const char *stringtag, MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newcomm))
FTMPI_API(Intercomm_create_from_groups,
          (MPI_Group local_group, int local_leader, MPI_Group remote_group, int remote_leader, const char *stringtag,
           MPI_Info info, MPI_Errhandler errhandler, MPI_Comm *newintercomm))
FTMPI_API(Comm_split, (MPI_Comm comm, int color, int key, MPI_Comm *newcomm))
FTMPI_API(Comm_split_type, (MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm))
FTMPI_API(Comm_free, (MPI_Comm * comm))
FTMPI_API(Comm_set_name, (MPI_Comm comm, const char *comm_name))
FTMPI_API(Comm_get_name, (MPI_Comm comm, char *comm_name, int *resultlen))
FTMPI_API(Comm_set_info, (MPI_Comm comm, MPI_Info info))
FTMPI_API(Comm_get_info, (MPI_Comm comm, MPI_Info *info_used))
FTMPI_API(Comm_test_inter, (MPI_Comm comm, int *flag))
FTMPI_API(Comm_remote_size, (MPI_Comm comm, int *size))
FTMPI_API(Comm_remote_group, (MPI_Comm comm, MPI_Group *group))
FTMPI_API(Intercomm_create,
          (MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader, int tag,
           MPI_Comm *newintercomm))
FTMPI_API(Intercomm_merge, (MPI_Comm intercomm, int high, MPI_Comm *newintracomm))

/* Dynamic processes: ports, accept/connect, published names, join (between
 * the processes of one job) */
FTMPI_API(Open_port, (MPI_Info info, char *port_name))
FTMPI_API(Close_port, (const char *port_name))
FTMPI_API(Comm_accept, (const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm))
FTMPI_API(Comm_connect, (const char *port_name, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *newcomm))
FTMPI_API(Publish_name, (const char *service_name, MPI_Info info, const char *port_name))
FTMPI_API(Lookup_name, (const char *service_name, MPI_Info info, char *port_name))
FTMPI_API(Unpublish_name, (const char *service_name, MPI_Info info, const char *port_name))
FTMPI_API(Comm_join, (int fd, MPI_Comm *intercomm))

/* Attributes */
FTMPI_API(Comm_create_keyval,
          (MPI_Comm_copy_attr_function * comm_copy_attr_fn, MPI_Comm_delete_attr_function *comm_delete_attr_fn,
           int *comm_keyval, void *extra_state))
FTMPI_API(Comm_free_keyval, (int *comm_keyval))
FTMPI_API(Comm_set_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val))
FTMPI_API(Comm_get_attr, (MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag))
FTMPI_API(Comm_delete_attr, (MPI_Comm comm, int comm_keyval))
/* MPI-1 names, deprecated but still used by older programs. */
FTMPI_API(Keyval_create, (MPI_Copy_function * copy_fn, MPI_Delete_function *delete_fn, int *keyval, void *extra_state))
FTMPI_API(Keyval_free, (int *keyval))
FTMPI_API(Attr_put, (MPI_Comm comm, int keyval, void *attribute_val))
FTMPI_API(Attr_get, (MPI_Comm comm, int keyval, void *attribute_val, int *flag))
FTMPI_API(Attr_delete, (MPI_Comm comm, int keyval))

/* Topologies */
FTMPI_API(Cart_create,
          (MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm *comm_cart))
FTMPI_API(Cart_get, (MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[]))
FTMPI_API(Cartdim_get, (MPI_Comm comm, int *ndims))
FTMPI_API(Cart_rank, (MPI_Comm comm, const int coords[], int *rank))
FTMPI_API(Cart_coords, (MPI_Comm comm, int rank, int maxdims, int coords[]))
FTMPI_API(Cart_shift, (MPI_Comm comm, int direction, int disp, int *rank_source, int *rank_dest))
FTMPI_API(Cart_sub, (MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm))
FTMPI_API(Cart_map, (MPI_Comm comm, int ndims, const int dims[], const int periods[], int *newrank))
FTMPI_API(Dims_create, (int nnodes, int ndims, int dims[]))
FTMPI_API(Graph_create,
          (MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int reorder, MPI_Comm *comm_graph))
FTMPI_API(Graphdims_get, (MPI_Comm comm, int *nnodes, int *nedges))
FTMPI_API(Graph_get, (MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[]))
FTMPI_API(Graph_neighbors_count, (MPI_Comm comm, int rank, int *nneighbors))
FTMPI_API(Graph_neighbors, (MPI_Comm comm, int rank, int maxneighbors, int neighbors[]))
FTMPI_API(Graph_map, (MPI_Comm comm, int nnodes, const int index[], const int edges[], int *newrank))
FTMPI_API(Topo_test, (MPI_Comm comm, int *status))
FTMPI_API(Dist_graph_create,
          (MPI_Comm comm_old, int n, const int sources[], const int degrees[], const int destinations[],
           const int weights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
FTMPI_API(Dist_graph_create_adjacent,
          (MPI_Comm comm_old, int indegree, const int sources[], const int sourceweights[], int outdegree,
           const int destinations[], const int destweights[], MPI_Info info, int reorder, MPI_Comm *comm_dist_graph))
FTMPI_API(Dist_graph_neighbors_count, (MPI_Comm comm, int *indegree, int *outdegree, int *weighted))
FTMPI_API(Dist_graph_neighbors,
          (MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree, int destinations[],
           int destweights[]))

#endif /* FTMPI_MPI_COMM_H */
