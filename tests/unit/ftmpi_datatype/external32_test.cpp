// external32 conversion of packed streams (datatype/external32.hpp): the
// standard's sizes, big-endian bytes, and the way back, on signatures made
// by hand and by the constructors.
#include <doctest/doctest.h>

#include "external32.hpp"
#include "internal/datatype.hpp"
#include "predefined.hpp"
#include "type.hpp"

#include <cfloat>
#include <cstddef>
#include <cstring>
#include <vector>

using namespace ftmpi::dt;

namespace {

std::vector<unsigned char> encode(const Signature &sig, size_t count, const void *native) {
    std::vector<unsigned char> ext(count * external32::size_of(sig));
    external32::encode(sig, count, static_cast<const unsigned char *>(native), ext.data());
    return ext;
}

}  // namespace

TEST_CASE("external32 sizes follow the standard's table, not the native ones") {
    CHECK(external32::size_of(ftmpi_dt_long.object.sig) == 4);
    CHECK(external32::size_of(ftmpi_dt_unsigned_long.object.sig) == 4);
    CHECK(external32::size_of(ftmpi_dt_wchar.object.sig) == 2);
    CHECK(external32::size_of(ftmpi_dt_long_double.object.sig) == 16);
    CHECK(external32::size_of(ftmpi_dt_c_long_double_complex.object.sig) == 32);
    CHECK(external32::size_of(ftmpi_dt_long_long.object.sig) == 8);
    CHECK(external32::size_of(ftmpi_dt_int.object.sig) == 4);
    CHECK(external32::size_of(ftmpi_dt_long_int.object.sig) == 8);  // long and int, no padding
    CHECK(external32::size_of(ftmpi_dt_complex32.object.sig) == 32);
    CHECK_FALSE(external32::same_size(ftmpi_dt_long.object.sig));
    CHECK(external32::same_size(ftmpi_dt_double.object.sig));
    CHECK(external32::same_size(ftmpi_dt_long_double.object.sig));
}

TEST_CASE("longs are truncated big-endian and sign-extended back") {
    const long in[] = {1, -2, 0x12345678};
    const auto ext = encode(ftmpi_dt_long.object.sig, 3, in);
    const std::vector<unsigned char> expected = {0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe, 0x12, 0x34, 0x56, 0x78};
    CHECK(ext == expected);
    long back[3] = {};
    external32::decode(ftmpi_dt_long.object.sig, 3, ext.data(), reinterpret_cast<unsigned char *>(back));
    CHECK(back[0] == 1);
    CHECK(back[1] == -2);
    CHECK(back[2] == 0x12345678);
    const unsigned long u = 0xfffffffeUL;
    unsigned long uback = 0;
    external32::decode(ftmpi_dt_unsigned_long.object.sig, 1, encode(ftmpi_dt_unsigned_long.object.sig, 1, &u).data(),
                       reinterpret_cast<unsigned char *>(&uback));
    CHECK(uback == u);
}

TEST_CASE("long double is binary128: 1.0 is 3fff 0000 ..., and comes back exactly") {
    const long double in[] = {1.0L, -LDBL_MAX, LDBL_TRUE_MIN, 1.0L / 3};
    const auto ext = encode(ftmpi_dt_long_double.object.sig, 4, in);
    CHECK(ext[0] == 0x3f);
    CHECK(ext[1] == 0xff);
    for (size_t i = 2; i < 16; ++i) CHECK(ext[i] == 0);
    long double back[4] = {};
    external32::decode(ftmpi_dt_long_double.object.sig, 4, ext.data(), reinterpret_cast<unsigned char *>(back));
    for (int i = 0; i < 4; ++i) CHECK(back[i] == in[i]);
}

TEST_CASE("a struct's stream converts element by element, with repeats") {
    struct S {
        long l;
        int i;
        wchar_t w;
    };
    const int bl[] = {1, 1, 1};
    const Aint disp[] = {offsetof(S, l), offsetof(S, i), offsetof(S, w)};
    Type *types[] = {&ftmpi_dt_long.object, &ftmpi_dt_int.object, &ftmpi_dt_wchar.object};
    Type *t = make_struct(bl, disp, types);
    Type *c = make_contiguous(3, t);
    CHECK(external32::size_of(c->sig) == 3 * (4 + 4 + 2));
    const S in[3] = {{-1, 2, L'a'}, {3, -4, L'b'}, {5, 6, 0x20ac}};
    std::vector<unsigned char> native(c->size);
    pack(in, 1, c, 0, native.data(), native.size());
    const auto ext = encode(c->sig, 1, native.data());
    CHECK(ext[0] == 0xff);
    CHECK(ext[7] == 2);
    CHECK(ext[9] == 'a');
    CHECK(ext[28] == 0x20);
    CHECK(ext[29] == 0xac);
    std::vector<unsigned char> back(c->size);
    external32::decode(c->sig, 1, ext.data(), back.data());
    CHECK(back == native);
    release(c);
    release(t);
}
