# slidesim's command line: a small exhaustive run prints its tables and writes
# the plot data; bad input is refused with a one-line reason and status 1.
#   cmake -DSLIDESIM=path/to/slidesim -DOUT=dir -P cli_test.cmake
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE ${OUT})
execute_process(COMMAND ${SLIDESIM} --grid 6x6 --method 1d --method "hybrid(all)" --failures 2 --out ${OUT}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "slidesim exited with ${rc}\nstderr:\n${err}\nstdout:\n${out}")
endif()
# 6x6 with 2D(2,1): 25 ranks; 1D after one failure: C_max 2 to 3, 2.6 on average.
foreach(expected "11 of 36 hosts" "method 1D: exhaustive, 625 sequences" "method hybrid(2D+1D+0D): exhaustive"
                 "2D %" "gnuplot")
  string(FIND "${out}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "'${expected}' is missing from the output:\n${out}")
  endif()
endforeach()
foreach(f collisions.csv selection.csv collisions.gp selection.gp)
  if(NOT EXISTS ${OUT}/${f})
    message(FATAL_ERROR "${f} was not written to ${OUT}")
  endif()
endforeach()
file(STRINGS ${OUT}/collisions.csv rows)
list(GET rows 0 header)
list(GET rows 1 first)
if(NOT header STREQUAL "method,failed,handled,refused,best,average,worst" OR NOT first STREQUAL "1D,1,25,0,2,2.6,3")
  message(FATAL_ERROR "unexpected collisions.csv:\n${header}\n${first}")
endif()

foreach(bad "--grid;6x" "--grid;6x6;--spares;3D(2,1)" "--grid;6x6;--method;3d" "--grid;6x6;--method;hybrid(1D+1D)")
  execute_process(COMMAND ${SLIDESIM} ${bad} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc TIMEOUT 30)
  string(FIND "${err}" "slidesim: " at)
  if(NOT rc EQUAL 1 OR NOT at EQUAL 0)
    message(FATAL_ERROR "'${bad}' gave status ${rc} and stderr:\n${err}")
  endif()
endforeach()
