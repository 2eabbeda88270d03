# ctest entry `fuzz_NAME` (tests/CMakeLists.txt): runs one libFuzzer harness
# for RUNS executions over a fresh copy of its seed corpus (libFuzzer adds
# the inputs it finds to its first corpus directory; the sources stay
# untouched). A crash, a sanitizer report, a hang (-timeout) or an input
# over the memory limit fails the test and leaves the input in
# WORK_DIR/artifacts/. MAX_TIME (-max_total_time) is only a safety cap: a
# run it stops before RUNS executions fails too, never passes quietly.
#   cmake -DFUZZER=build/fuzz/NAME_fuzzer -DCORPUS=tests/fuzz/corpus/NAME
#         -DWORK_DIR=build/fuzz/work/NAME -DRUNS=20000 -DMAX_TIME=300
#         [-DDICT=tests/fuzz/NAME.dict] -P run_fuzzer.cmake
foreach(v FUZZER CORPUS WORK_DIR RUNS MAX_TIME)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "run_fuzzer.cmake: -D${v}=... is required")
  endif()
endforeach()
if(NOT EXISTS ${FUZZER})
  message(FATAL_ERROR "${FUZZER} does not exist: the fuzz_build test builds it")
endif()

file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/corpus ${WORK_DIR}/artifacts)
file(GLOB seeds ${CORPUS}/*)
file(COPY ${seeds} DESTINATION ${WORK_DIR}/corpus)

set(args -runs=${RUNS} -max_total_time=${MAX_TIME} -timeout=30 -print_final_stats=1
         -artifact_prefix=${WORK_DIR}/artifacts/)
if(DICT AND EXISTS ${DICT})
  list(APPEND args -dict=${DICT})
endif()
execute_process(COMMAND ${FUZZER} ${args} ${WORK_DIR}/corpus
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
# libFuzzer's log is long; the head (seed loading) and the tail (the
# verdict and the final stats) are what a reader of a CI log needs.
string(LENGTH "${out}" n)
if(n GREATER 6000)
  string(SUBSTRING "${out}" 0 1500 head)
  math(EXPR from "${n} - 4500")
  string(SUBSTRING "${out}" ${from} 4500 tail)
  message("${head}\n[...]\n${tail}")
else()
  message("${out}")
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${FUZZER} failed (exit ${rc}); the input is in ${WORK_DIR}/artifacts/")
endif()
if(NOT out MATCHES "Done ([0-9]+) runs in")
  message(FATAL_ERROR "${FUZZER}: no 'Done N runs' line in libFuzzer's output")
endif()
if(CMAKE_MATCH_1 LESS RUNS)
  message(FATAL_ERROR "${FUZZER}: the ${MAX_TIME} s cap stopped it after ${CMAKE_MATCH_1} of ${RUNS} runs")
endif()
