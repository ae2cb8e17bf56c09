# Failure-injection MPI tests: a job run through
# ftmpirun on a private daemon that loads the VM services the fault tolerance
# needs (vm/drd, vm/events for the failure notifier, vm/spawn_notify for the
# ranks' exits; vm/naming for the job id), with the job's fault-tolerance
# modes.
#
#   ftmpi_add_ft_test(NAME SOURCES a.c… NP 2 4 … [COMM_MODE m] [MSG_MODE m]
#                     [STRICT] [ORDERED] [TIMEOUT s] [ENV K=V …] [LABELS l…]
#                     [SUFFIX s] [GROUP g])
#
# builds mpi_ft_NAME and registers mpi.ft.NAME<SUFFIX>.np<N> for each N,
# labelled `ft` (GROUP g: mpi_g_NAME, mpi.g.NAME…, labelled g, for other
# programs that need the VM's services, e.g. MPI_Comm_spawn's). A second call with the same NAME and a SUFFIX runs the same
# program again with other modes or ENV (SOURCES is then ignored). ENV
# entries go to every rank (ftmpirun -x K=V), e.g. FT_KILL_RANK=1
# FT_KILL_AT=bcast for tests/mpi/ft/inject.h. The launcher's
# --timeout fires 3 s before CTest's TIMEOUT (90 s unless told), so a hung
# rank never outlives its test. Included by tests/mpi/CMakeLists.txt before
# the test folders, so tests/mpi/ftmodes can use it too.

# inject.h's folder, for every program built here or in tests/mpi/ftmodes.
set(FTMPI_FT_INJECT_DIR ${CMAKE_CURRENT_LIST_DIR})

function(ftmpi_add_ft_test NAME)
  cmake_parse_arguments(T "STRICT;ORDERED" "TIMEOUT;COMM_MODE;MSG_MODE;SUFFIX;GROUP"
                        "SOURCES;NP;ENV;LABELS" ${ARGN})
  if(NOT T_SOURCES OR NOT T_NP)
    message(FATAL_ERROR "ftmpi_add_ft_test(${NAME}): SOURCES and NP are required")
  endif()
  if(T_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "ftmpi_add_ft_test(${NAME}): unknown arguments ${T_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ftmpirun)
    return()  # the VM's launcher is needed for failures to be notified
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 90)
  endif()
  if(NOT T_GROUP)
    set(T_GROUP ft)
  endif()
  set(exe mpi_${T_GROUP}_${NAME})
  if(NOT TARGET ${exe})
    add_executable(${exe} ${T_SOURCES})
    target_include_directories(${exe} PRIVATE ${FTMPI_FT_INJECT_DIR})
    target_link_libraries(${exe} PRIVATE ftmpi)
    # The services the private daemon loads (ftmpirun itself pulls in only
    # hcored and spawn_notify).
    foreach(service plugin_vm_drd plugin_vm_events plugin_vm_spawn_notify plugin_comm_shm)
      if(TARGET ${service})
        add_dependencies(${exe} ${service})
      endif()
    endforeach()
  endif()

  # -x first and a flag last: ftmpirun's -x takes every following word up
  # to the next option, so it must never stand right before the program.
  set(opts)
  foreach(kv ${T_ENV})
    list(APPEND opts -x ${kv})
  endforeach()
  if(T_COMM_MODE)
    list(APPEND opts --comm-mode ${T_COMM_MODE})
  endif()
  if(T_MSG_MODE)
    list(APPEND opts --msg-mode ${T_MSG_MODE})
  endif()
  if(T_STRICT)
    list(APPEND opts --strict-collectives)
  endif()
  if(T_ORDERED)
    list(APPEND opts --ordered-notifier)
  endif()
  math(EXPR launcher_timeout "${T_TIMEOUT} - 3")

  foreach(np ${T_NP})
    foreach(variant default ${FTMPI_TEST_TRANSPORTS})
      ftmpi_transport_variant(${variant} ${np} suffix env)
      if(suffix STREQUAL "skip")
        continue()
      endif()
      set(test mpi.${T_GROUP}.${NAME}${T_SUFFIX}${suffix}.np${np})
      # No HARNESS_HCORE and a root without a daemon: ftmpirun starts a private
      # hcored for this job alone, so parallel tests never share a VM.
      add_test(NAME ${test}
               COMMAND ${FTMPI_VM_TEST_LAUNCHER} -np ${np} --timeout ${launcher_timeout} ${env} ${opts}
                       --oversubscribe $<TARGET_FILE:${exe}>)
      # Besides the status: ftmpirun keeps a job whose rank was killed by any
      # signal, so a crash (SIGSEGV, SIGABRT) or a failed check must be caught
      # in the output too; and a comm driver that could not be used would
      # make the test run over another one.
      set_tests_properties(${test} PROPERTIES TIMEOUT ${T_TIMEOUT} LABELS "mpi;${T_GROUP};${T_LABELS};transport-${variant}"
        FAIL_REGULAR_EXPRESSION "FAILED: ;killed by SIG(SEGV|ABRT|BUS|FPE|ILL|TERM)|exited with status [1-9]|aborting job|comm driver [a-z0-9_]+ not used")
    endforeach()
  endforeach()
endfunction()
