// The "external32" data representation (MPI-3.1 §13.5.2, Table 13.2): each
// basic element big-endian at a fixed size, which is not always the native
// one here: long and unsigned long take 4 bytes, wchar_t 2 (both truncated
// on the way out, sign- resp. zero-extended on the way back), long double
// is IEEE binary128 (converted from and to x87 extended precision).
// Everything else is the native size, byte-reversed (complex: each half).
//
// MPI_Pack_external/_Unpack_external/_Pack_external_size and MPI-IO's
// "external32" file views all go through these, so they agree on sizes and
// bytes. They work on packed streams: the native one is what dt::pack
// makes, element after element of the type's signature.
#pragma once

#include "signature.hpp"

#include <cstddef>

namespace ftmpi::dt::external32 {

// Bytes one element with this signature takes in external32.
size_t size_of(const Signature &);
// Whether every basic element keeps its native size (then the external
// stream is as long as the native one).
bool same_size(const Signature &);

// `count` elements: native packed stream -> external32 stream, and back.
// `from` and `to` do not overlap; `to` has room for the whole result.
void encode(const Signature &, size_t count, const unsigned char *from, unsigned char *to);
void decode(const Signature &, size_t count, const unsigned char *from, unsigned char *to);

}  // namespace ftmpi::dt::external32
