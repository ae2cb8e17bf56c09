/*
 * examples_adder.h — the "examples.adder" interface exported by
 * examples/direct: a sample of the typed interface slot of ABI 1.2.
 *
 * An interface is an ops table whose layout a public header such as this one
 * defines; the plugin exports a pointer to its table in the descriptor's
 * interface list, and a process that loaded the plugin in-process gets it by
 * name and minimum version (Hlib's DirectPlugin::interface). The table starts
 * with its size so that it can grow at the end: a caller checks struct_size
 * covers a slot before calling it.
 */
#ifndef EXAMPLES_ADDER_H
#define EXAMPLES_ADDER_H

#include <stddef.h>
#include <stdint.h>

#define EXAMPLES_ADDER_INTERFACE "examples.adder"
#define EXAMPLES_ADDER_VERSION   1

typedef struct examples_adder_ops {
    uint32_t struct_size;
    int64_t (*add)(int64_t a, int64_t b);
    /* Adds every value of a caller's array: a call that a named PACKED
     * function could only make by copying the array into a pack buffer. */
    int64_t (*sum)(const int64_t *values, size_t count);
} examples_adder_ops;

#endif /* EXAMPLES_ADDER_H */
