// trial.hpp — one trial of the soak: a checked FT-MPI job (chaos_job.c)
// through the VM, one fault injected at a random moment, the job waited for
// with a deadline, and the outcome classified. The VM is left as the fault
// left it; the caller restores it before the next trial.
#pragma once

#include "chaos_vm.hpp"
#include "faults.hpp"

#include <chrono>
#include <filesystem>
#include <random>
#include <string>

namespace harness::chaos {

struct JobShape {
    std::filesystem::path ftmpirun;
    std::filesystem::path program;          // chaos_job
    int steps = 20;                         // rounds of the job
    int step_ms = 80;                       // ms a round takes (without failures)
    std::chrono::seconds timeout{60};       // past this the job is a HANG
    std::chrono::milliseconds grace{8000};  // for the job's processes and files to go after it ends
};

struct TrialResult {
    Outcome outcome = Outcome::ok;
    bool expected = true;  // the outcome the comm mode should give
    int status = -1;       // ftmpirun's exit status, -1 when killed
    double seconds = 0;
    std::string note;  // what was injected and what was seen
};

// Runs the trial in dir (created; the job's files and output stay there).
TrialResult run_trial(ChaosVm &vm, const JobShape &shape, Fault fault, const std::string &mode, std::mt19937_64 &rng,
                      const std::filesystem::path &dir);

}  // namespace harness::chaos
