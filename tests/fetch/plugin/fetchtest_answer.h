/* fetchtest_answer.h — the "fetchtest.answer" interface of fetchtest/ops,
 * the application-level plugin the fetch tests publish. */
#ifndef FETCHTEST_ANSWER_H
#define FETCHTEST_ANSWER_H

#include <stdint.h>

typedef struct fetchtest_answer_ops {
    uint32_t struct_size;
    int64_t (*answer)(void);
} fetchtest_answer_ops;

#endif /* FETCHTEST_ANSWER_H */
