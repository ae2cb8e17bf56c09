#!/usr/bin/env python3
"""Generates the Fortran bindings of libftmpi from bindings.txt.

    python3 ftmpi/fortran/gen_bindings.py   (from anywhere; then clang-format)

writes ftmpi/fortran/generated/bind_<section>.cpp (the C wrappers
mpi_<name>_ with their pmpi_<name>_ aliases) and
ftmpi/fortran/generated/mpi_interfaces.f90 / mpi_ext_interfaces.f90 (the
explicit interfaces of the `mpi` and `mpi_ext` modules). The output is
checked in, so building needs no Python; the test fortran_bindings_current
checks it is up to date with the table.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# --out DIR writes elsewhere (the up-to-date test compares against that).
OUT = sys.argv[sys.argv.index('--out') + 1] if '--out' in sys.argv else os.path.join(HERE, 'generated')


def clang_format(text):
    """The house layout (.clang-format of the repository), so the checked-in
    output passes the format check as generated."""
    return subprocess.run(['clang-format', '--assume-filename=' + os.path.join(HERE, 'generated', 'x.cpp')],
                          input=text, capture_output=True, text=True, check=True).stdout

HANDLES = {
    'comm': 'Comm', 'group': 'Group', 'type': 'Type', 'op': 'Op', 'req': 'Request',
    'errh': 'Errhandler', 'info': 'Info', 'msg': 'Message', 'file': 'File',
}
CTYPE = {k: 'MPI_' + ('Datatype' if v == 'Type' else v) for k, v in HANDLES.items()}


class Arg:
    def __init__(self, text):
        kind, self.name = text.split()
        self.param = None
        m = re.fullmatch(r'(\w+)\[(@?\w+)\]', kind)
        if m:
            kind, self.param = m.group(1), m.group(2)
        m = re.fullmatch(r'sout\((\w+)\)', kind)
        if m:
            kind, self.param = 'sout', m.group(1)
        self.kind = kind


def parse(path):
    sections, current = {}, None
    for raw in open(path):
        line = raw.strip()
        if not line or line.startswith('#'):
            continue
        if line.startswith('='):
            current = line[1:].strip()
            sections[current] = []
            continue
        m = re.fullmatch(r'(\w+)\((.*)\)', line)
        if not m:
            sys.exit('bindings.txt: cannot parse: ' + line)
        args = [Arg(a.strip()) for a in m.group(2).split(',') if a.strip()]
        sections[current].append((m.group(1), args))
    return sections


def c_name(name):
    for prefix, cprefix in (('mpix_', 'MPIX_'), ('ftmpi_', 'FTMPI_'), ('', 'MPI_')):
        if name.startswith(prefix):
            rest = name[len(prefix):]
            return cprefix + rest[0].upper() + rest[1:]
    raise AssertionError


def length_expr(param, args):
    if param == '@comm':
        return 'ftmpi::fortran::comm_size_of(MPI_Comm_f2c(*comm))'
    if param == '@cartdim':
        return 'ftmpi::fortran::cartdim_of(MPI_Comm_f2c(*comm))'
    return '*' + param


def completes(name):
    """Wait and test calls complete requests (MPI_REQUEST_FREE does not: a
    freed request's operation may still be running)."""
    return name.startswith(('wait', 'test'))


def gen_c(name, args):
    params, hidden, pre, call, post = [], [], [], [], []
    for a in args:
        n, k = a.name, a.kind
        if k == 'buf':
            params.append(f'void *{n}')
            call.append(f'ftmpi::fortran::buffer({n})')
        elif k == 'int':
            params.append(f'const MPI_Fint *{n}')
            call.append(f'*{n}')
        elif k in ('iout', 'iouts'):
            params.append(f'MPI_Fint *{n}')
            call.append(n)
        elif k == 'ints':
            params.append(f'const MPI_Fint *{n}')
            call.append(n)
        elif k in ('aint', 'off', 'cin'):
            t = {'aint': 'MPI_Aint', 'off': 'MPI_Offset', 'cin': 'MPI_Count'}[k]
            params.append(f'const {t} *{n}')
            call.append(f'*{n}')
        elif k in ('aout', 'ooff', 'cout'):
            t = {'aout': 'MPI_Aint', 'ooff': 'MPI_Offset', 'cout': 'MPI_Count'}[k]
            params.append(f'{t} *{n}')
            call.append(n)
        elif k == 'aints':
            params.append(f'const MPI_Aint *{n}')
            call.append(n)
        elif k == 'aout4':
            # MPI-1 routines whose address argument is a default INTEGER.
            params.append(f'MPI_Fint *{n}')
            pre.append(f'MPI_Aint c_{n} = 0;')
            call.append(f'&c_{n}')
            post.append(f'if (rc == MPI_SUCCESS) *{n} = static_cast<MPI_Fint>(c_{n});')
        elif k == 'lin':
            params.append(f'const MPI_Fint *{n}')
            call.append(f'*{n} != 0')
        elif k == 'lout':
            params.append(f'MPI_Fint *{n}')
            pre.append(f'int c_{n} = 0;')
            call.append(f'&c_{n}')
            post.append(f'if (rc == MPI_SUCCESS) *{n} = ftmpi::fortran::to_logical(c_{n});')
        elif k == 'lins':
            params.append(f'const MPI_Fint *{n}')
            ln = length_expr(a.param, args)
            pre.append(f'std::vector<int> c_{n} = ftmpi::fortran::from_logicals({n}, {ln});')
            call.append(f'c_{n}.data()')
        elif k == 'louts':
            params.append(f'MPI_Fint *{n}')
            ln = length_expr(a.param, args)
            pre.append(f'std::vector<int> c_{n}(ftmpi::fortran::length({ln}));')
            call.append(f'c_{n}.data()')
            post.append(f'if (rc == MPI_SUCCESS) ftmpi::fortran::to_logicals(c_{n}, {n});')
        elif k == 'sin':
            params.append(f'const char *{n}')
            hidden.append(f'size_t {n}_len')
            pre.append(f'const std::string c_{n} = ftmpi::fortran::from_fortran({n}, {n}_len);')
            call.append(f'c_{n}.c_str()')
        elif k == 'sout':
            params.append(f'char *{n}')
            hidden.append(f'size_t {n}_len')
            pre.append(f'char c_{n}[{a.param} + 1] = {{}};')
            call.append(f'c_{n}')
            post.append(f'if (rc == MPI_SUCCESS) ftmpi::fortran::to_fortran(c_{n}, {n}, {n}_len);')
        elif k in HANDLES:
            params.append(f'const MPI_Fint *{n}')
            call.append(f'MPI_{HANDLES[k]}_f2c(*{n})')
        elif k.endswith('_out') and k[:-4] in HANDLES:
            h = k[:-4]
            params.append(f'MPI_Fint *{n}')
            pre.append(f'{CTYPE[h]} c_{n} = nullptr;')
            call.append(f'&c_{n}')
            post.append(f'if (rc == MPI_SUCCESS) *{n} = MPI_{HANDLES[h]}_c2f(c_{n});')
        elif k.endswith('_io') and k[:-3] in HANDLES:
            h = k[:-3]
            params.append(f'MPI_Fint *{n}')
            pre.append(f'{CTYPE[h]} c_{n} = MPI_{HANDLES[h]}_f2c(*{n});')
            call.append(f'&c_{n}')
            if h == 'req' and completes(name):
                post.append(f'ftmpi::fortran::finish_pending({n}, &c_{n}, 1);')
            post.append(f'*{n} = MPI_{HANDLES[h]}_c2f(c_{n});')
        elif k == 'types':
            params.append(f'const MPI_Fint *{n}')
            ln = length_expr(a.param, args)
            pre.append(f'std::vector<MPI_Datatype> c_{n} = ftmpi::fortran::types_from({n}, {ln});')
            call.append(f'c_{n}.data()')
        elif k == 'reqs':
            params.append(f'MPI_Fint *{n}')
            ln = length_expr(a.param, args)
            pre.append(f'std::vector<MPI_Request> c_{n} = ftmpi::fortran::requests_from({n}, {ln});')
            call.append(f'c_{n}.data()')
            if completes(name):
                post.append(f'ftmpi::fortran::finish_pending({n}, c_{n}.data(), c_{n}.size());')
            post.append(f'ftmpi::fortran::requests_to(c_{n}, {n});')
        elif k == 'status':
            params.append(f'MPI_Fint *{n}')
            pre.append(f'MPI_Status c_{n}{{}};')
            call.append(f'ftmpi::fortran::status_ignored({n}) ? MPI_STATUS_IGNORE : &c_{n}')
            post.append(f'if (!ftmpi::fortran::status_ignored({n})) MPI_Status_c2f(&c_{n}, {n});')
        elif k == 'stin':
            params.append(f'const MPI_Fint *{n}')
            pre.append(f'MPI_Status c_{n}{{}};')
            pre.append(f'MPI_Status_f2c({n}, &c_{n});')
            call.append(f'&c_{n}')
        elif k == 'statuses':
            params.append(f'MPI_Fint *{n}')
            ln = length_expr(a.param, args)
            pre.append(f'std::vector<MPI_Status> c_{n}(ftmpi::fortran::length({ln}));')
            call.append(f'ftmpi::fortran::statuses_ignored({n}) ? MPI_STATUSES_IGNORE : c_{n}.data()')
            post.append(f'ftmpi::fortran::statuses_to(c_{n}, {n});')
        elif k == 'idx':
            params.append(f'MPI_Fint *{n}')
            call.append(n)
            post.append(f'if (rc == MPI_SUCCESS) ftmpi::fortran::index_to_fortran({n}, 1);')
        elif k == 'idxs':
            params.append(f'MPI_Fint *{n}')
            call.append(n)
            post.append(f'if (rc == MPI_SUCCESS) ftmpi::fortran::index_to_fortran({n}, *outcount);')
        else:
            sys.exit(f'bindings.txt: {name}: unknown kind {k}')
    params.append('MPI_Fint *ierror')
    params += hidden
    needs_try = any('std::' in p for p in pre)
    body = []
    body += pre
    body.append(f'const int rc = {c_name(name)}({", ".join(call)});')
    body += post
    body.append('*ierror = rc;')
    sym = c_name(name).lower() + '_'
    out = [f'void {sym}({", ".join(params)}) noexcept {{']
    if needs_try:
        out.append('try {')
        out += body
        out.append('} catch (...) {')
        out.append('*ierror = MPI_ERR_NO_MEM;')
        out.append('}')
    else:
        out += body
    out.append('}')
    out.append(f'FTMPI_F_PMPI({c_name(name).lower()})')
    return '\n'.join(out) + '\n'


def f_decl(a):
    k = a.kind
    if k == 'buf':
        return [f'!GCC$ ATTRIBUTES NO_ARG_CHECK :: {a.name}', f'real, dimension(*) :: {a.name}']
    if k in ('int', 'iout', 'aout4', 'idx') or k in HANDLES or k.endswith('_out') or k.endswith('_io'):
        return [f'integer :: {a.name}']
    if k in ('ints', 'iouts', 'types', 'reqs', 'idxs'):
        return [f'integer, dimension(*) :: {a.name}']
    if k in ('aint', 'aout'):
        return [f'integer(kind=MPI_ADDRESS_KIND) :: {a.name}']
    if k == 'aints':
        return [f'integer(kind=MPI_ADDRESS_KIND), dimension(*) :: {a.name}']
    if k in ('off', 'ooff'):
        return [f'integer(kind=MPI_OFFSET_KIND) :: {a.name}']
    if k in ('cin', 'cout'):
        return [f'integer(kind=MPI_COUNT_KIND) :: {a.name}']
    if k in ('lin', 'lout'):
        return [f'logical :: {a.name}']
    if k in ('lins', 'louts'):
        return [f'logical, dimension(*) :: {a.name}']
    if k in ('sin', 'sout'):
        return [f'character(len=*) :: {a.name}']
    if k in ('status', 'stin'):
        return [f'integer, dimension(MPI_STATUS_SIZE) :: {a.name}']
    if k == 'statuses':
        return [f'integer, dimension(MPI_STATUS_SIZE, *) :: {a.name}']
    raise AssertionError(k)


def gen_f(name, args):
    names = [a.name for a in args] + ['ierror']
    head = f'subroutine {c_name(name)}('
    lines = []
    # Free form: continue long argument lists with '&'.
    cur = head
    for i, n in enumerate(names):
        piece = n + (', ' if i + 1 < len(names) else ')')
        if len(cur) + len(piece) > 90:
            lines.append(cur.rstrip() + ' &')
            cur = '        '
        cur += piece
    lines.append(cur)
    body = ['  import', '  implicit none']
    for a in args:
        body += ['  ' + d for d in f_decl(a)]
    body.append('  integer :: ierror')
    return '\n'.join(['subroutine ' + l[len('subroutine '):] if l.startswith('subroutine') else l
                      for l in lines] + body + [f'end subroutine {c_name(name)}']) + '\n'


HEADER_C = '''// Generated by ftmpi/fortran/gen_bindings.py from bindings.txt ({section});
// do not edit. Each mpi_<name>_ is the gfortran symbol of MPI_<NAME>: every
// argument by reference, handles as MPI_Fint, IERROR last, then the hidden
// lengths of CHARACTER arguments; pmpi_<name>_ is its weak alias.
#include "support.hpp"

extern "C" {{

'''


def main():
    sections = parse(os.path.join(HERE, 'bindings.txt'))
    os.makedirs(OUT, exist_ok=True)
    for section, routines in sections.items():
        text = HEADER_C.format(section=section)
        text += '\n'.join(gen_c(n, a) for n, a in routines)
        text += '\n}  // extern "C"\n'
        with open(os.path.join(OUT, f'bind_{section}.cpp'), 'w') as f:
            f.write(clang_format(text))
    for module, pick in (('mpi', lambda s: s != 'ulfm'), ('mpi_ext', lambda s: s == 'ulfm')):
        text = f'! Generated by ftmpi/fortran/gen_bindings.py from bindings.txt: the\n'
        text += f'! explicit interfaces of module {module}; do not edit.\n'
        text += 'interface\n'
        for section, routines in sections.items():
            if pick(section):
                for n, a in routines:
                    text += gen_f(n, a)
        text += 'end interface\n'
        with open(os.path.join(OUT, f'{module}_interfaces.f90'), 'w') as f:
            f.write(text)


if __name__ == '__main__':
    main()
