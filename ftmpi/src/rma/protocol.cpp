// The encoding pieces of protocol.hpp: predefined ops and types by index,
// the basic type of an accumulate's datatype, and a datatype flattened into
// target blocks.
#include "protocol.hpp"

#include "../internal/datatype.hpp"

#include <array>
#include <cstdint>

namespace ftmpi::rma {
namespace {

// The order is the wire format: append only.
const std::array<MPI_Op, 14> &op_table() {
    static const std::array<MPI_Op, 14> ops{MPI_MAX,    MPI_MIN,    MPI_SUM,     MPI_PROD, MPI_LAND,
                                            MPI_BAND,   MPI_LOR,    MPI_BOR,     MPI_LXOR, MPI_BXOR,
                                            MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
    return ops;
}

const std::array<MPI_Datatype, 64> &type_table() {
    static const std::array<MPI_Datatype, 64> types{MPI_CHAR,
                                                    MPI_SIGNED_CHAR,
                                                    MPI_UNSIGNED_CHAR,
                                                    MPI_BYTE,
                                                    MPI_WCHAR,
                                                    MPI_SHORT,
                                                    MPI_UNSIGNED_SHORT,
                                                    MPI_INT,
                                                    MPI_UNSIGNED,
                                                    MPI_LONG,
                                                    MPI_UNSIGNED_LONG,
                                                    MPI_LONG_LONG_INT,
                                                    MPI_UNSIGNED_LONG_LONG,
                                                    MPI_FLOAT,
                                                    MPI_DOUBLE,
                                                    MPI_LONG_DOUBLE,
                                                    MPI_PACKED,
                                                    MPI_C_BOOL,
                                                    MPI_INT8_T,
                                                    MPI_INT16_T,
                                                    MPI_INT32_T,
                                                    MPI_INT64_T,
                                                    MPI_UINT8_T,
                                                    MPI_UINT16_T,
                                                    MPI_UINT32_T,
                                                    MPI_UINT64_T,
                                                    MPI_AINT,
                                                    MPI_OFFSET,
                                                    MPI_COUNT,
                                                    MPI_C_FLOAT_COMPLEX,
                                                    MPI_C_DOUBLE_COMPLEX,
                                                    MPI_C_LONG_DOUBLE_COMPLEX,
                                                    MPI_FLOAT_INT,
                                                    MPI_DOUBLE_INT,
                                                    MPI_LONG_INT,
                                                    MPI_2INT,
                                                    MPI_SHORT_INT,
                                                    MPI_LONG_DOUBLE_INT,
                                                    MPI_CXX_BOOL,
                                                    MPI_CXX_FLOAT_COMPLEX,
                                                    MPI_CXX_DOUBLE_COMPLEX,
                                                    MPI_CXX_LONG_DOUBLE_COMPLEX,
                                                    MPI_INTEGER,
                                                    MPI_REAL,
                                                    MPI_DOUBLE_PRECISION,
                                                    MPI_COMPLEX,
                                                    MPI_DOUBLE_COMPLEX,
                                                    MPI_LOGICAL,
                                                    MPI_CHARACTER,
                                                    MPI_2INTEGER,
                                                    MPI_2REAL,
                                                    MPI_2DOUBLE_PRECISION,
                                                    MPI_INTEGER1,
                                                    MPI_INTEGER2,
                                                    MPI_INTEGER4,
                                                    MPI_INTEGER8,
                                                    MPI_INTEGER16,
                                                    MPI_REAL2,
                                                    MPI_REAL4,
                                                    MPI_REAL8,
                                                    MPI_REAL16,
                                                    MPI_COMPLEX8,
                                                    MPI_COMPLEX16,
                                                    MPI_COMPLEX32};
    return types;
}

template <typename Table, typename Handle>
int index_in(const Table &table, Handle h) {
    for (size_t i = 0; i < table.size(); ++i)
        if (table[i] == h) return static_cast<int>(i);
    return -1;
}

bool is_named(MPI_Datatype type) {
    int ni = 0, na = 0, nd = 0, combiner = 0;
    return PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) == MPI_SUCCESS && combiner == MPI_COMBINER_NAMED;
}

}  // namespace

int predefined_op_index(MPI_Op op) {
    return index_in(op_table(), op);
}

MPI_Op predefined_op(int index) {
    return index >= 0 && static_cast<size_t>(index) < op_table().size() ? op_table()[static_cast<size_t>(index)]
                                                                        : MPI_OP_NULL;
}

int predefined_type_index(MPI_Datatype type) {
    return index_in(type_table(), type);
}

MPI_Datatype predefined_type(int index) {
    return index >= 0 && static_cast<size_t>(index) < type_table().size() ? type_table()[static_cast<size_t>(index)]
                                                                          : MPI_DATATYPE_NULL;
}

MPI_Datatype basic_of(MPI_Datatype type) {
    if (is_named(type)) return type;
    int ni = 0, na = 0, nd = 0, combiner = 0;
    if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS) return MPI_DATATYPE_NULL;
    std::vector<int> ints(static_cast<size_t>(ni) + 1);
    std::vector<MPI_Aint> aints(static_cast<size_t>(na) + 1);
    std::vector<MPI_Datatype> types(static_cast<size_t>(nd) + 1);
    if (PMPI_Type_get_contents(type, ni, na, nd, ints.data(), aints.data(), types.data()) != MPI_SUCCESS)
        return MPI_DATATYPE_NULL;
    MPI_Datatype found = MPI_DATATYPE_NULL;
    bool mixed = false;
    for (int i = 0; i < nd; ++i) {
        MPI_Datatype t = types[static_cast<size_t>(i)];
        const bool named = is_named(t);
        // A struct may place MPI-1's bound markers; they carry no data.
        if (named && (t == MPI_LB || t == MPI_UB)) continue;
        MPI_Datatype b = named ? t : basic_of(t);
        if (!named) PMPI_Type_free(&t);  // get_contents hands out new handles of derived types
        if (b == MPI_DATATYPE_NULL || (found != MPI_DATATYPE_NULL && b != found)) mixed = true;
        found = b;
    }
    return mixed ? MPI_DATATYPE_NULL : found;
}

void blocks_of(int count, MPI_Datatype type, std::vector<Block> &blocks) {
    blocks.clear();
    if (count > 0 && dt::contiguous(type)) {
        blocks.push_back(Block{static_cast<int64_t>(dt::true_lb(type)), static_cast<uint64_t>(count) * dt::size(type)});
        return;
    }
    // A base far from zero, so that negative lower bounds stay in range of
    // the pointer arithmetic; the blocks are offsets from it.
    constexpr uintptr_t origin = uintptr_t{1} << 46;
    dt::for_each_block(reinterpret_cast<const void *>(origin), count, type, [&](const void *p, size_t len) {
        const int64_t off = static_cast<int64_t>(reinterpret_cast<uintptr_t>(p) - origin);
        if (!blocks.empty() && blocks.back().offset + static_cast<int64_t>(blocks.back().length) == off)
            blocks.back().length += len;  // contiguous runs across elements
        else
            blocks.push_back(Block{off, len});
    });
}

}  // namespace ftmpi::rma
