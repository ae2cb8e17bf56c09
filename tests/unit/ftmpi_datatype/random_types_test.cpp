// Random nested datatypes, checked element by element against the reference
// type map (reference.hpp): size, bounds, true bounds, packed bytes, unpack,
// streaming in random segments, and element counts. Seeded, so every run
// checks the same types.
#include <doctest/doctest.h>

#include "reference.hpp"

#include <cstring>
#include <memory>
#include <random>
#include <string>

using namespace ftmpi::dt;

namespace {

struct Gen {
    std::mt19937_64 rng;
    explicit Gen(uint64_t seed) : rng(seed) {}

    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); }

    ref::Pair basic() {
        static Type *const choices[] = {&ftmpi_dt_char.object,        &ftmpi_dt_short.object,
                                        &ftmpi_dt_int.object,         &ftmpi_dt_double.object,
                                        &ftmpi_dt_long_double.object, &ftmpi_dt_double_int.object,
                                        &ftmpi_dt_short_int.object,   &ftmpi_dt_c_double_complex.object,
                                        &ftmpi_dt_float.object,       &ftmpi_dt_int8_t.object};
        Type *t = choices[pick(0, 9)];
        return {t, ref::of_predefined(t)};
    }

    // A random type of nesting depth at most `depth`; the caller releases it.
    ref::Pair make(int depth) {
        if (depth == 0) return basic();
        ref::Pair old = make(depth - 1);
        ref::Pair out{};
        switch (pick(0, 9)) {
        case 0: {
            const int n = pick(0, 4);
            out = {make_contiguous(n, old.type), ref::contiguous(old.map, n)};
            break;
        }
        case 1: {
            const int count = pick(0, 4), bl = pick(0, 3), stride = pick(-4, 6);
            out = {make_vector(count, bl, stride, old.type),
                   ref::hvector(old.map, count, bl, stride * old.map.extent())};
            break;
        }
        case 2: {
            const int count = pick(1, 4), bl = pick(1, 3);
            const Aint stride = pick(-40, 60);
            out = {make_hvector(count, bl, stride, old.type), ref::hvector(old.map, count, bl, stride)};
            break;
        }
        case 3: {
            const int n = pick(1, 4);
            std::vector<int> bl(n), disp(n);
            std::vector<Aint> bytes(n);
            for (int i = 0; i < n; ++i) {
                bl[i] = pick(0, 3);
                disp[i] = pick(-3, 8);
                bytes[i] = disp[i] * old.map.extent();
            }
            out = {make_indexed(bl, disp, old.type), ref::hindexed(old.map, bl, bytes)};
            break;
        }
        case 4: {
            const int n = pick(1, 4);
            std::vector<int> bl(n);
            std::vector<Aint> disp(n);
            for (int i = 0; i < n; ++i) {
                bl[i] = pick(0, 3);
                disp[i] = pick(-50, 100);
            }
            out = {make_hindexed(bl, disp, old.type), ref::hindexed(old.map, bl, disp)};
            break;
        }
        case 5: {
            const int n = pick(1, 4), bl = pick(0, 3);
            std::vector<int> disp(n), bls(n, bl);
            std::vector<Aint> bytes(n);
            for (int i = 0; i < n; ++i) {
                disp[i] = pick(0, 10);
                bytes[i] = disp[i] * old.map.extent();
            }
            out = {make_indexed_block(bl, disp, old.type), ref::hindexed(old.map, bls, bytes)};
            break;
        }
        case 6: {
            // A struct of old and two other random types.
            ref::Pair b = make(depth - 1), c = basic();
            std::vector<int> bl = {pick(0, 2), pick(1, 2), pick(1, 3)};
            std::vector<Aint> disp = {pick(-20, 20), pick(0, 80), pick(100, 200)};
            std::vector<Type *> types = {old.type, b.type, c.type};
            out = {make_struct(bl, disp, types), ref::structure({old.map, b.map, c.map}, bl, disp)};
            release(b.type);
            break;
        }
        case 7: {
            const Aint lb = pick(-16, 16), extent = pick(1, 64);
            out = {make_resized(old.type, lb, extent), ref::resized(old.map, lb, extent)};
            break;
        }
        case 8: {
            std::vector<int> sizes = {pick(1, 4), pick(1, 5)}, subs(2), starts(2);
            for (int d = 0; d < 2; ++d) {
                subs[d] = pick(1, sizes[d]);
                starts[d] = pick(0, sizes[d] - subs[d]);
            }
            out = {make_subarray(sizes, subs, starts, Order::c, old.type),
                   ref::subarray_c(old.map, sizes, subs, starts)};
            break;
        }
        default: out = {make_dup(old.type), old.map}; break;
        }
        release(old.type);
        return out;
    }
};

// Elements in a prefix by the map: basic elements wholly inside `bytes`,
// -1 if `bytes` ends inside one. Pairs count as two (value and int).
int64_t ref_elements(const ref::Map &m, int count, size_t bytes) {
    int64_t n = 0;
    for (int e = 0; e < count; ++e)
        for (const ref::Entry &x : m.entries) {
            if (bytes == 0) return n;
            if (bytes < x.size) return -1;
            // A complex is one basic element even though it is two numbers.
            bytes -= x.size;
            ++n;
        }
    return bytes == 0 ? n : -1;
}

void check(const ref::Pair &p, int count, uint64_t seed) {
    Type *t = p.type;
    const ref::Map &m = p.map;
    INFO("seed " << seed << " count " << count << " entries " << m.entries.size());
    REQUIRE(t->size == m.size());
    REQUIRE(t->lb == m.lb);
    REQUIRE(t->extent() == m.extent());
    if (!m.entries.empty()) {
        Aint tlb = m.entries[0].disp, tub = tlb;
        for (const ref::Entry &x : m.entries) {
            tlb = std::min(tlb, x.disp);
            tub = std::max(tub, x.disp + static_cast<Aint>(x.size));
        }
        CHECK(t->true_lb == tlb);
        CHECK(t->true_ub == tub);
    }

    // A buffer of distinct bytes covering every element.
    const auto [lo, hi] = ref::span_of(m, count);
    std::vector<unsigned char> buf(static_cast<size_t>(hi - lo) + 1);
    for (size_t i = 0; i < buf.size(); ++i) buf[i] = static_cast<unsigned char>(i * 131 + 7);
    const unsigned char *origin = buf.data() - lo;

    const std::vector<unsigned char> want = ref::pack(m, count, origin);
    std::vector<unsigned char> got(want.size() + 1, 0xEE);
    REQUIRE(pack(origin, count, t, 0, got.data(), got.size()) == want.size());
    REQUIRE(std::equal(want.begin(), want.end(), got.begin()));
    CHECK(got[want.size()] == 0xEE);  // nothing written past the packed size

    // Streaming in random segments gives the same bytes.
    std::mt19937 rng(static_cast<unsigned>(seed));
    std::vector<unsigned char> streamed(want.size());
    for (size_t off = 0; off < want.size();) {
        const size_t seg = std::uniform_int_distribution<size_t>(1, 13)(rng);
        const size_t n = pack(origin, count, t, off, streamed.data() + off, seg);
        REQUIRE(n == std::min(seg, want.size() - off));
        off += n;
    }
    REQUIRE(streamed == want);

    // Unpacking into a zeroed buffer writes exactly the mapped bytes (last
    // write wins where the map overlaps itself, as packing order says).
    std::vector<unsigned char> into(buf.size(), 0), expect(buf.size(), 0);
    size_t at = 0;
    for (int e = 0; e < count; ++e)
        for (const ref::Entry &x : m.entries) {
            std::memcpy(expect.data() + (e * m.extent() + x.disp - lo), want.data() + at, x.size);
            at += x.size;
        }
    unsigned char *into_origin = into.data() - lo;
    for (size_t off = 0; off < want.size();) {
        const size_t seg = std::uniform_int_distribution<size_t>(1, 17)(rng);
        off += unpack(want.data() + off, std::min(seg, want.size() - off), off, into_origin, count, t);
    }
    REQUIRE(into == expect);

    // Element counts at every byte prefix of one element.
    for (size_t bytes = 0; bytes <= t->size; ++bytes) {
        const int64_t r = ref_elements(m, 1, bytes);
        const MPI_Count e = elements(t, bytes);
        INFO("prefix " << bytes);
        CHECK(e == (r < 0 ? MPI_UNDEFINED : r));
    }
}

}  // namespace

TEST_CASE("random nested types match the reference type map, before and after commit") {
    for (uint64_t seed = 1; seed <= 400; ++seed) {
        Gen gen(seed);
        ref::Pair p = gen.make(1 + static_cast<int>(seed % 3));
        const int count = gen.pick(0, 3);
        check(p, count, seed);
        if (!p.type->predefined) commit(p.type);
        check(p, count, seed);
        release(p.type);
    }
}

TEST_CASE("large types streamed in segments of any size equal the whole pack") {
    // The transport's view: one big message cut at arbitrary byte offsets.
    Type *v = make_vector(100'000, 3, 5, &ftmpi_dt_double.object);  // repeated block
    const int bl[] = {8, 20, 3, 12};
    const Aint disp[] = {0, 32, 192, 196};
    Type *types[] = {&ftmpi_dt_int.object, &ftmpi_dt_double.object, &ftmpi_dt_char.object, &ftmpi_dt_float.object};
    Type *rec = make_struct(bl, disp, types);    // runs with holes
    Type *recs = make_vector(2'000, 2, 3, rec);  // reps of a struct
    for (Type *t : {v, recs}) {
        commit(t);
        const int count = 2;
        const auto span = static_cast<size_t>(t->true_ub + t->extent() * (count - 1));
        std::vector<unsigned char> buf(span);
        for (size_t i = 0; i < span; ++i) buf[i] = static_cast<unsigned char>(i * 7 + i / 251);
        std::vector<unsigned char> whole(count * t->size), part(count * t->size);
        REQUIRE(pack(buf.data(), count, t, 0, whole.data(), whole.size()) == whole.size());
        for (size_t seg : {size_t(1) << 16, size_t(4093), size_t(1) << 20}) {
            std::fill(part.begin(), part.end(), 0);
            for (size_t off = 0; off < part.size();)
                off += pack(buf.data(), count, t, off, part.data() + off, std::min(seg, part.size() - off));
            CHECK(part == whole);
            std::vector<unsigned char> back(span, 0), expect(span, 0);
            unpack(whole.data(), whole.size(), 0, expect.data(), count, t);
            for (size_t off = 0; off < whole.size();)
                off += unpack(whole.data() + off, std::min(seg, whole.size() - off), off, back.data(), count, t);
            CHECK(back == expect);
        }
        release(t);
    }
    release(rec);
}
