// ftmpi::dt as the rest of libftmpi sees it (internal/datatype.hpp): thin
// wrappers over the engine, with the contiguous fast path (one memcpy).
#include "internal/datatype.hpp"

#include "external32.hpp"
#include "type.hpp"

#include <climits>
#include <cstdint>
#include <cstring>

namespace ftmpi::dt {

namespace {
const unsigned char *address(const void *buf, Aint off) {
    return reinterpret_cast<const unsigned char *>(reinterpret_cast<std::uintptr_t>(buf) +
                                                   static_cast<std::uintptr_t>(off));
}
}  // namespace

bool valid(MPI_Datatype t) {
    return t != nullptr && (t->predefined || t->committed);
}
size_t size(MPI_Datatype t) {
    return t->size;
}
MPI_Aint extent(MPI_Datatype t) {
    return t->extent();
}
MPI_Aint lb(MPI_Datatype t) {
    return t->lb;
}
MPI_Aint true_lb(MPI_Datatype t) {
    return t->true_lb;
}
MPI_Aint true_extent(MPI_Datatype t) {
    return t->true_extent();
}

bool contiguous(MPI_Datatype t) {
    if (t->size == 0) return true;
    const Layout &l = t->layout;
    return l.reps == 1 && l.blocks.size() == 1 && l.blocks[0].count == 1 && l.blocks[0].len == t->size &&
        l.blocks[0].off == t->true_lb && t->extent() == static_cast<Aint>(t->size);
}

size_t pack(const void *buf, MPI_Count count, MPI_Datatype t, size_t offset, void *out, size_t len) {
    if (count <= 0) return 0;
    if (contiguous(t)) {
        const size_t total = static_cast<size_t>(count) * t->size;
        if (offset >= total) return 0;
        const size_t n = std::min(len, total - offset);
        std::memcpy(out, address(buf, t->true_lb + static_cast<Aint>(offset)), n);
        return n;
    }
    return pack_bytes(t->layout, t->extent(), static_cast<size_t>(count), static_cast<const unsigned char *>(buf),
                      offset, static_cast<unsigned char *>(out), len);
}

size_t unpack(const void *in, size_t len, size_t offset, void *buf, MPI_Count count, MPI_Datatype t) {
    if (count <= 0) return 0;
    if (contiguous(t)) {
        const size_t total = static_cast<size_t>(count) * t->size;
        if (offset >= total) return 0;
        const size_t n = std::min(len, total - offset);
        std::memcpy(const_cast<unsigned char *>(address(buf, t->true_lb + static_cast<Aint>(offset))), in, n);
        return n;
    }
    return unpack_bytes(t->layout, t->extent(), static_cast<size_t>(count), static_cast<unsigned char *>(buf), offset,
                        static_cast<const unsigned char *>(in), len);
}

void for_each_block(const void *buf, MPI_Count count, MPI_Datatype t,
                    const std::function<void(const void *, size_t)> &fn) {
    if (count <= 0 || t->size == 0) return;
    if (contiguous(t)) {
        fn(address(buf, t->true_lb), static_cast<size_t>(count) * t->size);
        return;
    }
    // Runs that touch (the last of one element and the first of the next)
    // are handed over as one block.
    const unsigned char *pending = nullptr;
    size_t pending_len = 0;
    walk(t->layout, t->extent(), static_cast<size_t>(count), static_cast<const unsigned char *>(buf), 0,
         static_cast<size_t>(count) * t->size, [&](const unsigned char *p, size_t n) {
             if (pending && pending + pending_len == p) {
                 pending_len += n;
                 return;
             }
             if (pending) fn(pending, pending_len);
             pending = p;
             pending_len = n;
         });
    if (pending) fn(pending, pending_len);
}

size_t bytes_of_elements(MPI_Datatype t, MPI_Count elements) {
    return elements <= 0 ? 0 : bytes_of(t->sig, static_cast<size_t>(elements));
}

MPI_Count elements(MPI_Datatype t, size_t bytes) {
    const std::int64_t n = elements_in(t->sig, bytes);
    return n < 0 ? MPI_UNDEFINED : n;
}

size_t external32_size(MPI_Datatype t) {
    return external32::size_of(t->sig);
}
bool external32_same_size(MPI_Datatype t) {
    return external32::same_size(t->sig);
}
void to_external32(MPI_Datatype t, size_t count, const void *native, void *ext) {
    external32::encode(t->sig, count, static_cast<const unsigned char *>(native), static_cast<unsigned char *>(ext));
}
void from_external32(MPI_Datatype t, size_t count, const void *ext, void *native) {
    external32::decode(t->sig, count, static_cast<const unsigned char *>(ext), static_cast<unsigned char *>(native));
}

}  // namespace ftmpi::dt
