# ctest fixture `fuzz_build` (tests/CMakeLists.txt): configures and builds
# the tests/fuzz project with clang into BUILD_DIR.
#   cmake -DSOURCE_DIR=tests/fuzz -DBUILD_DIR=build/fuzz -DCLANGXX=/usr/bin/clang++
#         -DGENERATOR=Ninja [-DMAKE_PROGRAM=/usr/bin/ninja] -P build_fuzzers.cmake
foreach(v SOURCE_DIR BUILD_DIR CLANGXX GENERATOR)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "build_fuzzers.cmake: -D${v}=... is required")
  endif()
endforeach()

# libFuzzer's runtime is a separate package on Debian (libclang-rt-14-dev);
# say so plainly instead of failing on a linker line.
file(MAKE_DIRECTORY ${BUILD_DIR})
file(WRITE ${BUILD_DIR}/probe.cc
     "#include <cstddef>\n#include <cstdint>\n"
     "extern \"C\" int LLVMFuzzerTestOneInput(const uint8_t*, size_t) { return 0; }\n")
execute_process(COMMAND ${CLANGXX} -fsanitize=fuzzer,address,undefined ${BUILD_DIR}/probe.cc
                        -o ${BUILD_DIR}/probe
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${CLANGXX} cannot link a libFuzzer harness (-fsanitize=fuzzer,address,undefined): "
                      "install libclang-rt-14-dev (tools/install-deps.sh does).\n${out}")
endif()

set(configure ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${BUILD_DIR} -G ${GENERATOR}
              -DCMAKE_CXX_COMPILER=${CLANGXX})
if(MAKE_PROGRAM)
  list(APPEND configure -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
execute_process(COMMAND ${configure} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the fuzz harnesses (${SOURCE_DIR}) failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${BUILD_DIR} --parallel 2 RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the fuzz harnesses in ${BUILD_DIR} failed")
endif()
