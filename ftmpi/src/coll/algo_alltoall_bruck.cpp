// Bruck's alltoall: ceil(log2 p) rounds instead of p-1 messages, for short
// blocks where the per-message cost dominates. Every block is handled in
// packed form (b bytes each):
//   1. staging[i] = this rank's block for rank r+i (a local rotation);
//   2. in round k (k = 1, 2, 4, ...) send every staging block whose index
//      has bit k set to rank r+k, and put what rank r-k sends in its place;
//      a block for r+i moves by the set bits of i, so it ends at rank r+i
//      with index i;
//   3. staging[i] now holds rank r-i's block for this rank: unpack it.
// Each round sends about p/2 blocks, so the volume is (p/2) log2 p blocks
// against p-1: short messages only.
#include "algorithms.hpp"
#include "buffers.hpp"
#include "internal/datatype.hpp"

#include <cstring>
#include <vector>

namespace ftmpi::coll {

void alltoall_bruck(Schedule &s, const void *sendbuf, int scount, MPI_Datatype stype, void *recvbuf, int rcount,
                    MPI_Datatype rtype) {
    const int p = s.size(), r = s.rank();
    const size_t block = data_bytes(rcount, rtype);
    // With MPI_IN_PLACE the input is recvbuf, laid out like the output; it
    // is packed (step 1) before step 3 writes recvbuf.
    const void *input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    const int icount = sendbuf == MPI_IN_PLACE ? rcount : scount;
    const MPI_Datatype itype = sendbuf == MPI_IN_PLACE ? rtype : stype;
    char *staging = s.scratch(block * static_cast<size_t>(p));
    // Buffer positions are comm ranks (a BLANK comm's gaps are skipped).
    std::vector<int> position(static_cast<size_t>(p));
    for (int v = 0; v < p; ++v) position[static_cast<size_t>(v)] = s.comm_rank(v);

    s.then([=] {
        for (int i = 0; i < p; ++i) {
            const int to = position[static_cast<size_t>((r + i) % p)];
            const void *src = element(input, static_cast<MPI_Aint>(to) * icount, itype);
            // A send block of another size than the receive block is the
            // caller's error (MPI requires equal signatures).
            if (data_bytes(icount, itype) != block) return MPI_ERR_TRUNCATE;
            if (dt::pack(src, icount, itype, 0, staging + static_cast<size_t>(i) * block, block) != block)
                return MPI_ERR_INTERN;
        }
        return MPI_SUCCESS;
    });

    const size_t most = block * static_cast<size_t>((p + 1) / 2);
    char *outgoing = s.scratch(most), *incoming = s.scratch(most);
    for (int k = 1; k < p; k <<= 1) {
        std::vector<int> moving;
        for (int i = 1; i < p; ++i)
            if (i & k) moving.push_back(i);
        const int bytes = static_cast<int>(block * moving.size());
        s.then([=] {
            for (size_t j = 0; j < moving.size(); ++j)
                std::memcpy(outgoing + j * block, staging + static_cast<size_t>(moving[j]) * block, block);
            return MPI_SUCCESS;
        });
        s.send(outgoing, bytes, MPI_BYTE, (r + k) % p);
        s.recv(incoming, bytes, MPI_BYTE, (r - k + p) % p);
        s.then([=] {
            for (size_t j = 0; j < moving.size(); ++j)
                std::memcpy(staging + static_cast<size_t>(moving[j]) * block, incoming + j * block, block);
            return MPI_SUCCESS;
        });
    }

    s.then([=] {
        for (int i = 0; i < p; ++i) {
            const int from = position[static_cast<size_t>((r - i + p) % p)];
            void *dst = element(recvbuf, static_cast<MPI_Aint>(from) * rcount, rtype);
            if (dt::unpack(staging + static_cast<size_t>(i) * block, block, 0, dst, rcount, rtype) != block)
                return MPI_ERR_INTERN;
        }
        return MPI_SUCCESS;
    });
}

}  // namespace ftmpi::coll
