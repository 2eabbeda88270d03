# ctest package_deb (label unit): the Debian package as a user gets it.
# Builds it with cpack into a fresh temporary folder, unpacks it into a
# temporary root with `dpkg -x`, runs the packaged binary from there and
# reads the packaged man page. Fails, saying what to install, without
# cpack's DEB tools (dpkg-deb, dpkg-shlibdeps) or help2man's man page.
#   cmake -DBINARY_DIR=build -DCPACK=cpack -P tests/package_test.cmake
foreach(var BINARY_DIR CPACK)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "package_test.cmake: -D${var}=... is required")
  endif()
endforeach()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "`${cmd}` failed (${rc}):\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

foreach(tool dpkg-deb dpkg-shlibdeps)
  find_program(found_${tool} ${tool})
  if(NOT found_${tool})
    message(FATAL_ERROR "${tool} not found: cpack -G DEB needs it (Debian's dpkg-dev package)")
  endif()
endforeach()
if(NOT EXISTS ${BINARY_DIR}/man/innosim.1)
  # The man page is an ALL target; a build of single targets skips it.
  run(${CMAKE_COMMAND} --build ${BINARY_DIR} --target innosim_man)
endif()

run(mktemp -d /tmp/innosim_package_test.XXXXXX)
string(STRIP "${out}" tmp)
run(${CPACK} -G DEB --config ${BINARY_DIR}/CPackConfig.cmake -B ${tmp}/deb)
file(GLOB debs ${tmp}/deb/innosim_*.deb)
list(LENGTH debs n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "cpack made ${n} innosim_*.deb files in ${tmp}/deb, not 1")
endif()
run(dpkg-deb -x ${debs} ${tmp}/root)

# The packaged binary runs from the unpacked root (no build folder needed)
# and prints InnoDB's counters.
run(${tmp}/root/usr/bin/innosim run --stream uuidv4 --rows 10k)
if(NOT out MATCHES "index_page_splits")
  message(FATAL_ERROR "the packaged innosim's output names no index_page_splits:\n${out}")
endif()

# The packaged man page holds the run subcommand's options, as man shows it.
set(man_page ${tmp}/root/usr/share/man/man1/innosim.1)
if(NOT EXISTS ${man_page})
  message(FATAL_ERROR "the package has no usr/share/man/man1/innosim.1: install help2man and configure again")
endif()
find_program(MAN man)
if(MAN)
  run(${CMAKE_COMMAND} -E env LC_ALL=C MANWIDTH=200 ${MAN} -l ${man_page})
else()
  file(READ ${man_page} out)
  string(REPLACE "\\-" "-" out "${out}")
endif()
foreach(option "--stream" "--rows" "--rows-per-ms" "--page-size" "--profile" "--json")
  string(FIND "${out}" "${option}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the man page does not name run's option ${option}:\n${out}")
  endif()
endforeach()
file(REMOVE_RECURSE ${tmp})
message(STATUS "package_deb: ${debs} installs, runs and documents run's options")
