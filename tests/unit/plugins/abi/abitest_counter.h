/* abitest_counter.h — the "abitest.counter" interface of the ABI test
 * plugins: version 1 counts by one, version 2 by two, so a test can tell
 * which table it was given. */
#ifndef ABITEST_COUNTER_H
#define ABITEST_COUNTER_H

#include <stdint.h>

typedef struct abitest_counter_ops {
    uint32_t struct_size;
    int64_t (*next)(int64_t value);
} abitest_counter_ops;

#endif /* ABITEST_COUNTER_H */
