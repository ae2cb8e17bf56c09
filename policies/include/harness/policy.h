/* harness/policy.h — the recovery-policy plugin interfaces.
 *
 * When a process of a fault-tolerant job fails, the launcher (ftmpirun)
 * asks policy plugins what to do, in three steps:
 *
 *   1. detectors, in the order the job's policy file lists them, look at the
 *      facts of the fault (harness_policy_fault) and pick a recovery
 *      protocol by name, or pass the fault on to the next detector;
 *   2. the protocol picked carries the recovery out through the launcher's
 *      actions (harness_policy_actions): start a replacement on a given host,
 *      migrate the rank where the placement puts it, promote a hot standby,
 *      or leave the rank out;
 *   3. a migration asks the placement plugin which ranks move where
 *      (spare hosts, sliding substitution).
 *
 * Each is an application-level HARNESS plugin exporting one ops table
 * through the plugin descriptor's interface slot, resolved and verified as
 * every plugin is (<root>/lib, <root>/cache, the local daemon's signed
 * repositories):
 *
 *   package "placement", interface HARNESS_POLICY_PLACEMENT_INTERFACE
 *   package "detector",  interface HARNESS_POLICY_DETECTOR_INTERFACE
 *   package "protocol",  interface HARNESS_POLICY_PROTOCOL_INTERFACE
 *
 * Configuration reaches a component as key/value text pairs (the policy
 * file's members other than "component"); open() refuses an unknown key or
 * a bad value with a one-line reason, so the launcher can refuse the policy
 * before the job starts.
 *
 * Calls come from one launcher thread. Every function is noexcept at the
 * boundary: errors are return values and text written into `why` (always
 * NUL-terminated, truncated to why_len). Growth: the tables and structs
 * start with their size; a reader uses a field only when struct_size covers
 * it. Pure C. */
#ifndef HARNESS_POLICY_H
#define HARNESS_POLICY_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define HARNESS_POLICY_PLACEMENT_INTERFACE "harness.policy.placement"
#define HARNESS_POLICY_DETECTOR_INTERFACE  "harness.policy.detector"
#define HARNESS_POLICY_PROTOCOL_INTERFACE  "harness.policy.protocol"
#define HARNESS_POLICY_VERSION             1

/* Return codes. */
#define HARNESS_POLICY_OK       0
#define HARNESS_POLICY_REFUSED  1 /* cannot handle this case; `why` says why, nothing changed */
#define HARNESS_POLICY_INVALID  2 /* bad arguments or configuration */
#define HARNESS_POLICY_TOO_MANY 3 /* the output buffer is too small */

/* A component's configuration: `count` key/value pairs. */
typedef struct harness_policy_config {
    uint32_t struct_size;
    uint32_t count;
    const char *const *keys;
    const char *const *values;
} harness_policy_config;

/* ---- placement ---------------------------------------------------------- */

/* A job laid out on a host grid. Hosts are numbered row-major with
 * dimension 0 fastest; ranks likewise over the logical grid. */
typedef struct harness_policy_layout {
    uint32_t struct_size;
    int32_t dims;                /* 1 to 6 */
    const int32_t *host_extents; /* dims entries */
    int32_t torus;               /* non-zero: every dimension wraps */
    const char *spares;          /* the spare pattern, "2D(2,1)"; "" for none */
    const int32_t *rank_extents; /* the logical grid of ranks, dims entries */
    int32_t ranks;               /* product of rank_extents */
    const int32_t *rank_host;    /* the host of each rank now */
    int32_t failed_count;
    const int32_t *failed_hosts; /* hosts already lost */
} harness_policy_layout;

typedef struct harness_policy_move {
    int32_t rank;
    int32_t from; /* the failed host, for the rank that was lost */
    int32_t to;
} harness_policy_move;

typedef struct harness_policy_placement_ops {
    uint32_t struct_size;
    /* A placement for one job; NULL with `why` on an invalid layout or
     * configuration (e.g. "method": "hybrid(2D+1D+0D)"). */
    void *(*open)(const harness_policy_config *config, const harness_policy_layout *layout, char *why, size_t why_len);
    /* Host `host` is lost. On OK, *count moves (at most max_moves) in
     * pipeline order: along a line, the rank moving into the free host first,
     * then the one moving into the host it left; *method names the method
     * that handled it ("1D"; "" when the host held no rank). REFUSED: no
     * method can handle it and nothing changed; the host stays usable. */
    int32_t (*fail)(void *placement, int32_t host, harness_policy_move *moves, int32_t max_moves, int32_t *count,
                    char *method, size_t method_len, char *why, size_t why_len);
    void (*close)(void *placement);
    /* fail() with no move onto a host of avoid[0..avoid_count) (the job's
     * hosts behind a switch the network detector wants avoided): REFUSED
     * when every method would need one. Optional: a table whose
     * struct_size ends before it, or NULL here, cannot avoid hosts (the
     * launcher then refuses a migration that asks it to). */
    int32_t (*fail_avoiding)(void *placement, int32_t host, const int32_t *avoid, int32_t avoid_count,
                             harness_policy_move *moves, int32_t max_moves, int32_t *count, char *method,
                             size_t method_len, char *why, size_t why_len);
} harness_policy_placement_ops;

/* ---- detectors ---------------------------------------------------------- */

/* What the launcher knows of one fault: one rank's process ended by failure. */
typedef struct harness_policy_fault {
    uint32_t struct_size;
    int32_t rank;
    int32_t incarnation;         /* of the process that failed */
    int32_t host;                /* the job host it ran on (index into the job's hosts) */
    const char *host_name;       /* the daemon's member id */
    int32_t host_failed;         /* non-zero: the VM declared that daemon failed (or it left) */
    int32_t host_failures;       /* faults of the job's processes on that host so far, this one included */
    const char *switch_name;     /* "" when the hostfile names none */
    int32_t switch_hosts;        /* the job's hosts behind that switch */
    int32_t switch_failed_hosts; /* how many of them the VM declared failed, this one's included */
} harness_policy_fault;

/* A detector's choice. */
typedef struct harness_policy_decision {
    uint32_t struct_size;
    char protocol[32];    /* "RESTART", "MIGRATE", …: a protocol component's name, upper case */
    int32_t avoid_switch; /* non-zero: the new host must not be behind the failed host's switch */
    char reason[160];     /* one line for the launcher's log: "host h3 failed 3 times (threshold 2)" */
} harness_policy_decision;

typedef struct harness_policy_detector_ops {
    uint32_t struct_size;
    void *(*open)(const harness_policy_config *config, char *why, size_t why_len);
    /* OK: *decision is filled. REFUSED: not this detector's case; the next
     * detector in the chain is asked. */
    int32_t (*detect)(void *detector, const harness_policy_fault *fault, harness_policy_decision *decision);
    void (*close)(void *detector);
} harness_policy_detector_ops;

/* ---- protocols ---------------------------------------------------------- */

/* What a protocol may do, provided by the launcher. Each returns OK or
 * REFUSED with `why` (no such host alive, no standby left, …). */
typedef struct harness_policy_actions {
    uint32_t struct_size;
    void *launcher;
    /* A replacement for the rank on job host `host`. */
    int32_t (*start_on)(void *launcher, int32_t rank, int32_t host, char *why, size_t why_len);
    /* A replacement on another host: the placement's choice (moving other
     * ranks as it says), else the alive job host running the fewest of the
     * job's processes; avoid_switch keeps it off the failed host's switch. */
    int32_t (*migrate)(void *launcher, int32_t rank, int32_t avoid_switch, char *why, size_t why_len);
    /* A hot standby (started with the job, initialised) takes the rank's place. */
    int32_t (*promote)(void *launcher, int32_t rank, char *why, size_t why_len);
    /* No replacement: the survivors go on without the rank (a gap). */
    int32_t (*leave_out)(void *launcher, int32_t rank, const char *reason);
} harness_policy_actions;

typedef struct harness_policy_protocol_ops {
    uint32_t struct_size;
    void *(*open)(const harness_policy_config *config, char *why, size_t why_len);
    int32_t (*recover)(void *protocol, const harness_policy_fault *fault, const harness_policy_decision *decision,
                       const harness_policy_actions *actions, char *why, size_t why_len);
    void (*close)(void *protocol);
} harness_policy_protocol_ops;

#ifdef __cplusplus
}
#endif

#endif /* HARNESS_POLICY_H */
