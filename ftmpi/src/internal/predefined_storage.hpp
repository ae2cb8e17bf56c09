// The storage of a predefined MPI object (MPI_COMM_WORLD, MPI_INT, MPI_SUM,
// ...): the object itself at the start of a block of a fixed size.
//
// Why a fixed size: a program that names a predefined object holds its own
// copy of it. The program's code takes the object's address directly, so
// the linker reserves room for it in the program and the dynamic linker
// copies the library's object there at start (a copy relocation); from then
// on the library uses that copy. The room is as large as the object was
// when the program was linked. If a later libftmpi grew the object, it
// would write past the end of the copy in every program built earlier.
// mpi.h therefore declares each predefined object as this storage, whose
// size stays the same from one version to the next, and the static_assert
// below stops a build whose object no longer fits.
#pragma once

#include <cstddef>
#include <utility>

// Defines `union Storage` holding an `Object` in `Bytes` bytes: a default
// constructor, one that builds the object from arguments (constant when
// they are, so predefined ops stay in read-only-after-start data), and a
// destructor that destroys the object as a plain global would be.
#define FTMPI_PREDEFINED_STORAGE(Storage, Object, Bytes)                                                               \
    union Storage {                                                                                                    \
        Object object;                                                                                                 \
        unsigned char reserved[Bytes];                                                                                 \
        Storage() : object() {}                                                                                        \
        template <class... Args>                                                                                       \
        constexpr explicit Storage(std::in_place_t, Args &&...args) : object{std::forward<Args>(args)...} {}           \
        Storage(const Storage &) = delete;                                                                             \
        Storage &operator=(const Storage &) = delete;                                                                  \
        ~Storage() { object.~Object(); }                                                                               \
    };                                                                                                                 \
    static_assert(sizeof(Storage) == (Bytes), #Object " no longer fits the size mpi.h promises programs")
