// Each constructor's layout, size and bounds on small known cases, the
// predefined types' C layouts, commit's compaction, and reference counting.
#include <doctest/doctest.h>

#include "internal/datatype.hpp"
#include "predefined.hpp"
#include "type.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

using namespace ftmpi::dt;

namespace {

// Which ints of an iota array the type selects, in pack order.
std::vector<int> picks(Type *t, int count = 1, Aint origin_index = 0) {
    std::vector<int> data(4096);
    std::iota(data.begin(), data.end(), 0);
    std::vector<int> out(static_cast<size_t>(count) * t->size / sizeof(int));
    pack(data.data() + origin_index, count, t, 0, out.data(), out.size() * sizeof(int));
    for (int &v : out) v -= static_cast<int>(origin_index);
    return out;
}

Type *const INT = &ftmpi_dt_int.object;

}  // namespace

TEST_CASE("predefined pair types have C's padding") {
    struct DI {
        double v;
        int i;
    };
    struct SI {
        short v;
        int i;
    };
    struct LDI {
        long double v;
        int i;
    };
    CHECK(ftmpi_dt_double_int.object.size == 12);
    CHECK(ftmpi_dt_double_int.object.extent() == static_cast<Aint>(sizeof(DI)));
    CHECK(ftmpi_dt_short_int.object.size == 6);
    CHECK(ftmpi_dt_short_int.object.extent() == static_cast<Aint>(sizeof(SI)));
    CHECK(ftmpi_dt_short_int.object.layout.blocks.size() == 2);  // the hole after the short
    CHECK(ftmpi_dt_long_double_int.object.size == sizeof(long double) + sizeof(int));
    CHECK(ftmpi_dt_long_double_int.object.extent() == static_cast<Aint>(sizeof(LDI)));
    CHECK(ftmpi_dt_2int.object.extent() == 8);
    CHECK(ftmpi_dt_c_double_complex.object.size == 16);
    CHECK(ftmpi_dt_long_double.object.size == sizeof(long double));
    CHECK(ftmpi_dt_int.object.name == "MPI_INT");
    CHECK(ftmpi_dt_2int.object.name == "MPI_2INT");
    // Each pair type packs as value then index, skipping padding.
    SI s[2] = {{1, 10}, {2, 20}};
    unsigned char out[12];
    REQUIRE(pack(s, 2, &ftmpi_dt_short_int.object, 0, out, sizeof out) == 12);
    short v;
    int i;
    std::memcpy(&v, out + 6, 2);
    std::memcpy(&i, out + 8, 4);
    CHECK(v == 2);
    CHECK(i == 20);
}

TEST_CASE("contiguous of contiguous is one run") {
    Type *a = make_contiguous(3, INT);
    Type *b = make_contiguous(4, a);
    CHECK(b->size == 48);
    CHECK(b->extent() == 48);
    CHECK(b->layout.blocks.size() == 1);
    CHECK(contiguous(b));
    CHECK(picks(b, 2) == [] {
        std::vector<int> v(24);
        std::iota(v.begin(), v.end(), 0);
        return v;
    }());
    release(a);
    release(b);
}

TEST_CASE("vector: blocks at a stride, extent ends at the last block") {
    Type *v = make_vector(3, 2, 5, INT);
    CHECK(v->size == 24);
    CHECK(v->lb == 0);
    CHECK(v->extent() == (2 * 5 + 2) * 4);
    CHECK(picks(v) == std::vector<int>{0, 1, 5, 6, 10, 11});
    CHECK(picks(v, 2) == std::vector<int>{0, 1, 5, 6, 10, 11, 12, 13, 17, 18, 22, 23});
    CHECK_FALSE(contiguous(v));
    release(v);
}

TEST_CASE("vector with negative stride starts below the origin") {
    Type *v = make_vector(3, 1, -2, INT);
    CHECK(v->lb == -16);
    CHECK(v->true_lb == -16);
    CHECK(v->extent() == 20);
    CHECK(picks(v, 1, 100) == std::vector<int>{0, -2, -4});
    release(v);
}

TEST_CASE("a huge vector costs one block, before and after commit") {
    Type *v = make_vector(200'000'000, 1, 2, INT);
    CHECK(v->layout.blocks.size() == 1);
    commit(v);
    CHECK(v->layout.blocks.size() == 1);
    CHECK(v->size == 800'000'000u);
    release(v);
}

TEST_CASE("counts past INT_MAX: 64-bit size and extent, arguments kept as large counts") {
    const Count big = Count{INT32_MAX} + 10;
    Type *c = make_contiguous(big, INT);
    CHECK(c->size == static_cast<size_t>(big) * 4);
    CHECK(c->extent() == big * 4);
    CHECK(c->ints.empty());
    CHECK(c->large_counts == std::vector<std::int64_t>{big});
    // The same values from an int-sized call stay ints.
    Type *small = make_contiguous(7, INT);
    CHECK(small->ints == std::vector<int>{7});
    CHECK(small->large_counts.empty());
    // An hindexed block past INT_MAX elements: integers, then displacements.
    const Count bl[] = {1, big};
    const Aint disp[] = {0, 8};
    Type *h = make_hindexed(std::span<const Count>(bl), disp, INT);
    CHECK(h->size == static_cast<size_t>(big + 1) * 4);
    CHECK(h->large_counts == std::vector<std::int64_t>{2, 1, big, 0, 8});
    CHECK(h->aints.empty());
    release(c);
    release(small);
    release(h);
}

TEST_CASE("bytes_of is the inverse of elements_in") {
    // {char, double} pairs, three of them per element: a struct's signature.
    const int bl[] = {1, 1};
    const Aint disp[] = {0, 8};
    Type *const members[] = {&ftmpi_dt_char.object, &ftmpi_dt_double.object};
    Type *pair = make_struct(bl, disp, members);
    Type *three = make_contiguous(3, pair);
    for (size_t n = 0; n < 20; ++n) {
        const size_t bytes = bytes_of(three->sig, n);
        CHECK(elements_in(three->sig, bytes) == static_cast<std::int64_t>(n));
    }
    CHECK(bytes_of(three->sig, 6) == three->size);
    CHECK(bytes_of(three->sig, 7) == three->size + 1);
    release(pair);
    release(three);
}

TEST_CASE("hvector stride is in bytes") {
    Type *v = make_hvector(3, 1, 12, INT);
    CHECK(picks(v) == std::vector<int>{0, 3, 6});
    CHECK(v->extent() == 28);
    release(v);
}

TEST_CASE("indexed and hindexed follow the listed order, not memory order") {
    const int bl[] = {2, 1, 3};
    const int disp[] = {10, 0, 4};
    Type *t = make_indexed(bl, disp, INT);
    CHECK(picks(t) == std::vector<int>{10, 11, 0, 4, 5, 6});
    CHECK(t->lb == 0);
    CHECK(t->extent() == 12 * 4);
    const Aint hdisp[] = {40, 0, 16};
    Type *h = make_hindexed(bl, hdisp, INT);
    CHECK(picks(h) == picks(t));
    release(t);
    release(h);
}

TEST_CASE("indexed_block and hindexed_block") {
    const int disp[] = {7, 1, 3};
    Type *t = make_indexed_block(2, disp, INT);
    CHECK(picks(t) == std::vector<int>{7, 8, 1, 2, 3, 4});
    const Aint hdisp[] = {28, 4, 12};
    Type *h = make_hindexed_block(2, hdisp, INT);
    CHECK(picks(h) == picks(t));
    release(t);
    release(h);
}

TEST_CASE("struct: members in order, extent padded like the C struct") {
    struct S {
        char c;
        double d;
        int i;
    };
    const int bl[] = {1, 1, 1};
    const Aint disp[] = {offsetof(S, c), offsetof(S, d), offsetof(S, i)};
    Type *types[] = {&ftmpi_dt_char.object, &ftmpi_dt_double.object, &ftmpi_dt_int.object};
    Type *t = make_struct(bl, disp, types);
    CHECK(t->size == 13);
    CHECK(t->extent() == static_cast<Aint>(sizeof(S)));
    CHECK(t->true_extent() == static_cast<Aint>(offsetof(S, i) + 4));
    CHECK(t->kind == Kind::none);
    S s[2] = {{'a', 1.5, 7}, {'b', 2.5, 8}};
    unsigned char out[26];
    REQUIRE(pack(s, 2, t, 0, out, sizeof out) == 26);
    S back[2] = {};
    REQUIRE(unpack(out, 26, 0, back, 2, t) == 26);
    CHECK(back[1].c == 'b');
    CHECK(back[1].d == 2.5);
    CHECK(back[1].i == 8);
    release(t);
}

TEST_CASE("a struct of one kind keeps that kind (ops accept it)") {
    const int bl[] = {2, 1};
    const Aint disp[] = {0, 16};
    Type *types[] = {INT, INT};
    Type *t = make_struct(bl, disp, types);
    CHECK(t->kind == Kind::int_);
    release(t);
}

TEST_CASE("MPI-1 LB/UB markers set a struct's bounds and leave its kind") {
    const int bl[] = {1, 1, 1};
    const Aint disp[] = {-4, 0, 20};
    Type *types[] = {&ftmpi_dt_lb.object, INT, &ftmpi_dt_ub.object};
    Type *t = make_struct(bl, disp, types);
    CHECK(t->size == 4);
    CHECK(t->lb == -4);
    CHECK(t->ub == 20);
    CHECK(t->true_lb == 0);
    CHECK(t->true_extent() == 4);
    CHECK(t->kind == Kind::int_);
    // A contiguous of it strides by the marked extent.
    Type *c = make_contiguous(2, t);
    CHECK(c->extent() == 48);
    CHECK(c->true_extent() == 28);
    release(c);
    release(t);
}

TEST_CASE("a bare marker sets only its own bound") {
    // MPI-1 takes ub over the data and the UB markers: { (LB,10) } has ub 0.
    const int bl[] = {1};
    const Aint disp[] = {10};
    Type *lb_only[] = {&ftmpi_dt_lb.object};
    Type *t = make_struct(bl, disp, lb_only);
    CHECK(t->size == 0);
    CHECK(t->lb == 10);
    CHECK(t->ub == 0);
    CHECK(t->extent() == -10);
    Type *ub_only[] = {&ftmpi_dt_ub.object};
    Type *u = make_struct(bl, disp, ub_only);
    CHECK(u->lb == 0);
    CHECK(u->ub == 10);
    // Next to data the marker still wins on its side only.
    const int bl2[] = {1, 1};
    const Aint disp2[] = {10, 16};
    Type *with_int[] = {&ftmpi_dt_lb.object, INT};
    Type *w = make_struct(bl2, disp2, with_int);
    CHECK(w->lb == 10);
    CHECK(w->ub == 20);
    release(w);
    release(u);
    release(t);
}

TEST_CASE("resized changes lb and extent, not the data") {
    Type *r = make_resized(INT, -4, 16);
    CHECK(r->lb == -4);
    CHECK(r->extent() == 16);
    CHECK(r->true_lb == 0);
    CHECK(r->true_extent() == 4);
    CHECK(picks(r, 3, 10) == std::vector<int>{0, 4, 8});
    release(r);
}

TEST_CASE("dup of a committed type is committed") {
    Type *v = make_vector(2, 1, 3, INT);
    commit(v);
    Type *d = make_dup(v);
    CHECK(d->committed);
    CHECK(picks(d) == picks(v));
    CHECK(d->types == std::vector<Type *>{v});
    release(v);
    release(d);
}

TEST_CASE("subarray: C and Fortran order, extent of the whole array") {
    const int sizes[] = {4, 6}, subs[] = {2, 3}, starts[] = {1, 2};
    Type *c = make_subarray(sizes, subs, starts, Order::c, INT);
    CHECK(c->lb == 0);
    CHECK(c->extent() == 24 * 4);
    CHECK(picks(c) == std::vector<int>{8, 9, 10, 14, 15, 16});
    CHECK(c->combiner == Combiner::subarray);
    CHECK(c->types == std::vector<Type *>{INT});
    Type *f = make_subarray(sizes, subs, starts, Order::fortran, INT);
    // Fortran: the first index is fastest; element (i, j) is at i + 4 j.
    CHECK(picks(f) == std::vector<int>{9, 10, 13, 14, 17, 18});
    release(c);
    release(f);
}

TEST_CASE("darray: block, cyclic and none; C and Fortran order") {
    const int g1[] = {10}, p3[] = {3}, dflt[] = {darg_default}, two[] = {2};
    const Distribute block[] = {Distribute::block}, cyclic[] = {Distribute::cyclic};
    std::vector<std::vector<int>> want_block = {{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}};
    std::vector<std::vector<int>> want_cyclic2 = {{0, 1, 6, 7}, {2, 3, 8, 9}, {4, 5}};
    for (int r = 0; r < 3; ++r) {
        Type *b = make_darray(3, r, g1, block, dflt, p3, Order::c, INT);
        REQUIRE(b);
        CHECK(picks(b) == want_block[r]);
        CHECK(b->extent() == 40);
        CHECK(b->lb == 0);
        Type *c = make_darray(3, r, g1, cyclic, two, p3, Order::c, INT);
        REQUIRE(c);
        CHECK(picks(c) == want_cyclic2[r]);
        CHECK(c->extent() == 40);
        release(b);
        release(c);
    }
    // 4 x 6 on a 2 x 3 grid, rank 4 = grid (1, 1).
    const int g2[] = {4, 6}, p23[] = {2, 3}, d2[] = {darg_default, darg_default};
    const Distribute bb[] = {Distribute::block, Distribute::block};
    Type *c = make_darray(6, 4, g2, bb, d2, p23, Order::c, INT);
    CHECK(picks(c) == std::vector<int>{14, 15, 20, 21});
    Type *f = make_darray(6, 4, g2, bb, d2, p23, Order::fortran, INT);
    CHECK(picks(f) == std::vector<int>{10, 11, 14, 15});
    CHECK(f->extent() == 24 * 4);
    // None: the whole dimension on every process.
    const Distribute bn[] = {Distribute::block, Distribute::none};
    const int p21[] = {2, 1};
    Type *n = make_darray(2, 1, g2, bn, d2, p21, Order::c, INT);
    CHECK(picks(n) == std::vector<int>{12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23});
    // A block too small to cover its dimension is refused.
    const int small[] = {3};
    CHECK(make_darray(3, 0, g1, block, small, p3, Order::c, INT) == nullptr);
    release(c);
    release(f);
    release(n);
}

TEST_CASE("commit merges adjacent runs into maximal ones") {
    // An indexed type whose blocks happen to touch: 3 listed runs, one after commit.
    const int bl[] = {2, 3, 1};
    const int disp[] = {0, 2, 5};
    Type *t = make_indexed(bl, disp, INT);
    commit(t);
    REQUIRE(t->layout.blocks.size() == 1);
    CHECK(t->layout.blocks[0].len == 24);
    CHECK(contiguous(t));
    release(t);
}

TEST_CASE("commit folds a struct-of-arrays access pattern into one repeated block") {
    // Every third int, listed one by one: 100 runs become one strided block.
    std::vector<int> bl(100, 1), disp(100);
    for (int i = 0; i < 100; ++i) disp[i] = 3 * i;
    Type *t = make_indexed(bl, disp, INT);
    commit(t);
    REQUIRE(t->layout.blocks.size() == 1);
    CHECK(t->layout.blocks[0] == Block{0, 4, 100, 12});
    release(t);
}

TEST_CASE("a type freed by its user lives while an operation holds it") {
    Type *v = make_vector(2, 1, 2, INT);
    Type *outer = make_contiguous(2, v);
    retain(v);                   // a pending operation
    release(v);                  // MPI_Type_free by the user
    CHECK(v->refs.load() == 2);  // the operation's and outer's references
    CHECK(picks(v) == std::vector<int>{0, 2});
    release(v);  // the operation completes
    CHECK(picks(outer) == std::vector<int>{0, 2, 3, 5});
    release(outer);  // frees v too (ASan would see a leak or a double free)
}

TEST_CASE("for_each_block hands over maximal blocks in order") {
    Type *v = make_vector(3, 2, 3, INT);
    std::vector<int> data(32);
    std::vector<std::pair<Aint, size_t>> seen;
    for_each_block(data.data(), 2, v,
                   [&](const void *p, size_t n) { seen.emplace_back(static_cast<const int *>(p) - data.data(), n); });
    // Element 2 starts right after element 1's last block: 8 bytes at 6 and
    // 8 at 8 touch and are handed over as one block.
    const std::vector<std::pair<Aint, size_t>> want = {{0, 8}, {3, 8}, {6, 16}, {11, 8}, {14, 8}};
    CHECK(seen == want);
    release(v);
}

TEST_CASE("elements counts basic elements and refuses a split one") {
    CHECK(elements(&ftmpi_dt_double_int.object, 12) == 2);
    CHECK(elements(&ftmpi_dt_double_int.object, 8) == 1);
    CHECK(elements(&ftmpi_dt_double_int.object, 10) == MPI_UNDEFINED);
    CHECK(elements(&ftmpi_dt_double_int.object, 36) == 6);
    const int bl[] = {1, 2};
    const Aint disp[] = {0, 8};
    Type *types[] = {&ftmpi_dt_double.object, &ftmpi_dt_char.object};
    Type *s = make_struct(bl, disp, types);
    CHECK(elements(s, 9) == 2);
    CHECK(elements(s, 10 + 8) == 4);
    CHECK(elements(s, 10 + 4) == MPI_UNDEFINED);
    release(s);
}

TEST_CASE("resized bounds act as markers: they win in a struct and stop its padding") {
    // Matches Open MPI 4.1 (and MPI-1's LB/UB marker rules).
    Type *r = make_resized(INT, 0, 5);
    const int bl[] = {1, 1};
    const Aint disp[] = {0, 8};
    Type *alone[] = {r};
    Type *s1 = make_struct(std::span(bl, 1), std::span(disp, 1), alone);
    CHECK(s1->extent() == 5);  // no padding to int alignment
    Type *with_double[] = {r, &ftmpi_dt_double.object};
    Type *s2 = make_struct(bl, disp, with_double);
    CHECK(s2->extent() == 5);  // the marker's ub wins over the double's end at 16
    CHECK(s2->true_extent() == 16);
    Type *plain[] = {&ftmpi_dt_double.object, &ftmpi_dt_char.object};
    Type *s3 = make_struct(bl, disp, plain);
    CHECK(s3->extent() == 16);  // data ends at 9, padded to double alignment
    release(r);
    release(s1);
    release(s2);
    release(s3);
}
