#!/bin/bash
# Tests of FT-MPI's compiler wrappers, pkg-config file and CMake packages, as
# a user meets them: real compiles, real CMake projects, real runs of the
# resulting programs through the MPI test launcher.
#
#   wrappers_test.sh MODE BUILD_DIR WRAPPER_DIR LAUNCHER GENERATOR
#
# MODE: show | compile | pkgconfig | cmake_find_mpi | cmake_find_ftmpi | install | fortran | abi
# WRAPPER_DIR holds bin/, pkgconfig/ and cmake/ of the build tree.
set -euo pipefail

mode=$1 build_dir=$2 wrapper_dir=$3 launcher=$4 generator=$5
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/ftmpi-wrappers-$mode.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() { echo "FAIL ($mode): $*" >&2; exit 1; }
# Output must contain (or not contain) a fixed string.
has() { grep -qF -- "$2" <<<"$1" || fail "expected '$2' in: $1"; }
lacks() { ! grep -qF -- "$2" <<<"$1" || fail "did not expect '$2' in: $1"; }

# Runs a built MPI program on NP ranks; it must exit 0 and print `expect`
# (runs of blanks count as one: Fortran's list-directed output pads numbers).
run_job() {
    local np=$1 program=$2 expect=$3 out
    out=$("$launcher" -np "$np" --timeout 30 "$program" 2>&1) || fail "$program on $np ranks failed: $out"
    has "$(tr -s ' ' <<<"$out")" "$expect"
}

mpicc=$wrapper_dir/bin/mpicc
mpicxx=$wrapper_dir/bin/mpicxx

case "$mode" in
show)
    out=$("$mpicc" -show hello.c -o hello)
    has "$out" "hello.c -o hello"
    has "$out" "-lftmpi"
    incdir=$("$mpicc" -showme:incdirs)
    [ -f "$incdir/mpi.h" ] || fail "-showme:incdirs '$incdir' has no mpi.h"
    has "$out" "-I$incdir"
    compiler=$("$mpicc" -showme:command)
    [ "${out%% *}" = "$compiler" ] || fail "-show does not start with the compiler '$compiler': $out"
    # Compile-only runs get no link flags.
    out=$("$mpicc" -show -c hello.c)
    lacks "$out" "-lftmpi"
    out=$("$mpicc" -showme:compile)
    has "$out" "-I$incdir"
    lacks "$out" "-lftmpi"
    out=$("$mpicc" -showme:link)
    has "$out" "-lftmpi"
    has "$out" "-Wl,-rpath,"
    libdir=$("$mpicc" -showme:libdirs)
    ls "$libdir"/libftmpi.so* >/dev/null 2>&1 || fail "-showme:libdirs '$libdir' has no libftmpi"
    # MPICH's spellings print the whole command.
    out=$("$mpicc" -compile-info)
    has "$out" "$compiler -I$incdir"
    out=$("$mpicc" -link_info)
    has "$out" "-lftmpi"
    has "$("$mpicc" -showme:version)" "FT-MPI"
    # mpicxx uses the C++ compiler; FTMPI_CC and -cc= choose another one.
    out=$("$mpicxx" -show x.cpp)
    [ "${out%% *}" != "$compiler" ] || fail "mpicxx uses the C compiler: $out"
    out=$(FTMPI_CC=my-cc "$mpicc" -show x.c)
    [ "${out%% *}" = my-cc ] || fail "FTMPI_CC ignored: $out"
    out=$("$mpicc" -cc=other-cc -show x.c)
    [ "${out%% *}" = other-cc ] || fail "-cc= ignored: $out"
    # Unknown -showme: options are refused with a message.
    if err=$("$mpicc" -showme:nonsense 2>&1); then fail "-showme:nonsense succeeded"; fi
    has "$err" "unknown option"
    has "$("$mpicc" -showme:help)" "-showme:compile"
    ;;
compile)
    cd "$work"
    "$mpicc" -O2 -Wall -Werror "$here/hello.c" -o hello_c
    "$mpicxx" -O2 -Wall -Werror "$here/hello.cpp" -o hello_cxx
    # Separate compile and link steps, as make does.
    "$mpicc" -c "$here/hello.c" -o hello.o
    "$mpicc" hello.o -o hello_linked
    run_job 1 ./hello_c "hello from C: 1 ranks, token 1"
    run_job 3 ./hello_c "hello from C: 3 ranks, token 6"
    run_job 2 ./hello_cxx "hello from C++: 2 ranks, sum 1"
    run_job 2 ./hello_linked "hello from C: 2 ranks, token 3"
    # A compile error is reported as the compiler's, with its status.
    printf 'int main(void) { return undefined_thing; }\n' >broken.c
    if "$mpicc" broken.c -o broken 2>err.txt; then fail "a broken program compiled"; fi
    has "$(cat err.txt)" "undefined_thing"
    ;;
pkgconfig)
    cd "$work"
    export PKG_CONFIG_PATH=$wrapper_dir/pkgconfig
    [ "$(pkg-config --modversion ftmpi)" = "0.1.0" ] || fail "modversion $(pkg-config --modversion ftmpi)"
    cflags=$(pkg-config --cflags ftmpi)
    libs=$(pkg-config --libs ftmpi)
    has "$cflags" "-I"
    has "$libs" "-lftmpi"
    # shellcheck disable=SC2086
    cc $cflags "$here/hello.c" -o hello_pc $libs
    run_job 2 ./hello_pc "hello from C: 2 ranks, token 3"
    ;;
cmake_find_mpi)
    # FindMPI keeps -L/-l/-Wl flags of the wrapper's link line but drops
    # -fsanitize=…, which a sanitizer build of libftmpi needs in the program.
    sanitize=$(tr ' ' '\n' <<<"$("$mpicc" -showme:link)" | grep '^-fsanitize=' || true)
    cmake -S "$here/find_mpi" -B "$work/b" -G "$generator" -DHELLO_DIR="$here" \
        -DCMAKE_EXE_LINKER_FLAGS="$sanitize" \
        -DMPI_C_COMPILER="$mpicc" -DMPI_CXX_COMPILER="$mpicxx" >"$work/configure.log" 2>&1 ||
        { cat "$work/configure.log"; fail "configure with find_package(MPI) failed"; }
    log=$(cat "$work/configure.log")
    has "$log" "MPI_C_VERSION=3.1"
    has "$log" "libftmpi"
    cmake --build "$work/b" -j 2 >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build failed"; }
    run_job 2 "$work/b/hello_c" "hello from C: 2 ranks, token 3"
    run_job 2 "$work/b/hello_cxx" "hello from C++: 2 ranks, sum 1"
    ;;
cmake_find_ftmpi)
    cmake -S "$here/find_ftmpi" -B "$work/b" -G "$generator" -DHELLO_DIR="$here" \
        -Dftmpi_DIR="$wrapper_dir/cmake" >"$work/configure.log" 2>&1 ||
        { cat "$work/configure.log"; fail "configure with find_package(ftmpi) failed"; }
    has "$(cat "$work/configure.log")" "user project: ftmpi 0.1.0"
    cmake --build "$work/b" -j 2 >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build failed"; }
    run_job 3 "$work/b/hello_c" "hello from C: 3 ranks, token 6"
    run_job 1 "$work/b/hello_cxx" "hello from C++: 1 ranks, sum 0"
    # Asking for a newer major version than installed is refused.
    mkdir -p "$work/newer"
    sed 's/find_package(ftmpi 0.1 REQUIRED)/find_package(ftmpi 7.0 REQUIRED)/' "$here/find_ftmpi/CMakeLists.txt" \
        >"$work/newer/CMakeLists.txt"
    if cmake -S "$work/newer" -B "$work/nb" -G "$generator" -DHELLO_DIR="$here" \
        -Dftmpi_DIR="$wrapper_dir/cmake" >"$work/newer.log" 2>&1; then
        fail "find_package(ftmpi 7.0) accepted version 0.1.0"
    fi
    ;;
install)
    # Install only FT-MPI's component, then move the tree: everything must
    # still work from the new place (the wrappers and packages are relocatable).
    cmake --install "$build_dir" --prefix "$work/first" --component ftmpi >"$work/install.log" 2>&1 ||
        { cat "$work/install.log"; fail "cmake --install failed"; }
    mv "$work/first" "$work/prefix"
    prefix=$work/prefix
    for f in bin/mpicc bin/mpicxx include/mpi.h include/mpi-ext.h; do
        [ -e "$prefix/$f" ] || fail "$f not installed"
    done
    out=$("$prefix/bin/mpicc" -show x.c)
    has "$out" "-I$prefix/include"
    lacks "$out" "$build_dir"
    cd "$work"
    "$prefix/bin/mpicc" "$here/hello.c" -o hello_installed
    "$prefix/bin/mpicxx" "$here/hello.cpp" -o hello_installed_cxx
    run_job 2 ./hello_installed "hello from C: 2 ranks, token 3"
    run_job 2 ./hello_installed_cxx "hello from C++: 2 ranks, sum 1"
    pcdir=$(dirname "$(find "$prefix" -name ftmpi.pc)")
    has "$(PKG_CONFIG_PATH=$pcdir pkg-config --libs ftmpi)" "-L$prefix/"
    cmake -S "$here/find_ftmpi" -B "$work/b" -G "$generator" -DHELLO_DIR="$here" \
        -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" 2>&1 ||
        { cat "$work/configure.log"; fail "find_package(ftmpi) from the install failed"; }
    cmake --build "$work/b" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build failed"; }
    run_job 2 "$work/b/hello_c" "hello from C: 2 ranks, token 3"
    cmake -S "$here/find_mpi" -B "$work/m" -G "$generator" -DHELLO_DIR="$here" \
        -DMPI_C_COMPILER="$prefix/bin/mpicc" -DMPI_CXX_COMPILER="$prefix/bin/mpicxx" >"$work/mconf.log" 2>&1 ||
        { cat "$work/mconf.log"; fail "find_package(MPI) with the installed mpicc failed"; }
    has "$(cat "$work/mconf.log")" "$prefix/"
    ;;
fortran)
    # mpifort/mpif90/mpif77 from the build tree, then from a moved install.
    mpifort=$wrapper_dir/bin/mpifort
    [ "$("$mpifort" -showme:libs)" = "ftmpi_fortran ftmpi" ] || fail "libs: $("$mpifort" -showme:libs)"
    has "$("$mpifort" -showme:compile)" "-fallow-argument-mismatch"
    has "$("$wrapper_dir/bin/mpif90" -show x.f90)" "-lftmpi_fortran"
    cd "$work"
    "$mpifort" -Wall -Werror "$here/hello.f90" -o hello_f90
    "$wrapper_dir/bin/mpif77" "$here/hello77.f" -o hello_f77
    run_job 3 ./hello_f90 "hello from Fortran: 3 ranks, sum 3"
    run_job 2 ./hello_f77 "hello from Fortran 77: 2 ranks, token 3"
    cmake --install "$build_dir" --prefix "$work/first" --component ftmpi >"$work/install.log" 2>&1 ||
        { cat "$work/install.log"; fail "cmake --install failed"; }
    mv "$work/first" "$work/prefix"
    prefix=$work/prefix
    for f in bin/mpifort bin/mpif90 bin/mpif77 include/mpif.h include/mpif-ext.h include/mpi.mod include/mpi_ext.mod; do
        [ -e "$prefix/$f" ] || fail "$f not installed"
    done
    out=$("$prefix/bin/mpifort" -show x.f90)
    has "$out" "-I$prefix/include"
    lacks "$out" "$build_dir"
    mkdir inst && cd inst
    "$prefix/bin/mpif90" "$here/hello.f90" -o hello_f90
    "$prefix/bin/mpif77" "$here/hello77.f" -o hello_f77
    run_job 2 ./hello_f90 "hello from Fortran: 2 ranks, sum 1"
    run_job 4 ./hello_f77 "hello from Fortran 77: 4 ranks, token 10"
    ;;
abi)
    # Every predefined object (MPI_COMM_WORLD, MPI_INT, MPI_SUM ...) is
    # storage of the size mpi.h promises for its kind, in the library and in
    # a program's own copy of it (the copy relocation the linker makes),
    # so a program linked today keeps working with a later libftmpi whose
    # objects have grown. Changing a size breaks every program built before.
    declare -A promised=([comm]=1024 [group]=256 [errhandler]=128 [info]=256 [message]=128 [dt]=512 [op]=128)
    lib=$(readlink -f "$build_dir/ftmpi/libftmpi.so")
    check_sizes() { # file, minimum number of ftmpi_ objects expected
        local n=0 name size kind
        while read -r _ size _ name; do
            [[ $name =~ ^ftmpi_(comm|group|errhandler|info|message|dt|op)_ ]] || continue
            kind=${BASH_REMATCH[1]}
            (( 16#$size == promised[$kind] )) || fail "$1: $name is $((16#$size)) bytes, mpi.h promises ${promised[$kind]}"
            n=$((n + 1))
        done < <(nm -D -S --defined-only "$1" | awk '$3 ~ /^[BDR]$/')
        (( n >= $2 )) || fail "$1: only $n predefined objects found, expected at least $2"
    }
    check_sizes "$lib" 80
    # The sizes belong to ABI number 1 (the library's SONAME).
    soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
    [ "$soname" = "libftmpi.so.1" ] || fail "SONAME $soname, expected libftmpi.so.1"
    cat > "$work/names.c" <<'PROGRAM'
#include <mpi.h>
#include <stdio.h>
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size, sum = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_SELF, &size);
    MPI_Group g;
    MPI_Comm_group(MPI_COMM_WORLD, &g);
    int empty = g == MPI_GROUP_EMPTY;
    MPI_Group_free(&g);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Allreduce(&size, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    int nkeys = -1;
    MPI_Info_get_nkeys(MPI_INFO_ENV, &nkeys);
    MPI_Status st;
    MPI_Message m = MPI_MESSAGE_NO_PROC;
    MPI_Mrecv(NULL, 0, MPI_DOUBLE, &m, &st);
    if (rank == 0) printf("objects ok sum=%d empty=%d keys=%d\n", sum, empty, nkeys >= 0);
    MPI_Finalize();
    return 0;
}
PROGRAM
    "$mpicc" "$work/names.c" -o "$work/names"
    nm -D --undefined-only "$work/names" >/dev/null
    # The program's copies are dynamic symbols it defines itself.
    copies=$(readelf -rW "$work/names" | grep -c R_X86_64_COPY || true)
    (( copies >= 6 )) || fail "expected the program to copy its predefined objects, found $copies copy relocations"
    check_sizes "$work/names" 6
    run_job 2 "$work/names" "objects ok sum=2 empty=0 keys=1"
    ;;
*)
    fail "unknown mode"
    ;;
esac
echo "PASS ($mode)"
