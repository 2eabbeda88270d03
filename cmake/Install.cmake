# `cmake --install build --prefix P`: the innosim binary (P/bin) and its man
# page (P/share/man/man1/innosim.1), written at build time by Debian's
# help2man from `innosim --help-all` (the help of every subcommand), so the
# page never drifts from the options. Without help2man the binary is still
# built and installed, without a man page, and configuring says so.
include(GNUInstallDirs)
install(TARGETS innosim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

find_program(INNOSIM_HELP2MAN help2man)
if(INNOSIM_HELP2MAN)
  set(innosim_man ${PROJECT_BINARY_DIR}/man/innosim.1)
  add_custom_command(
    OUTPUT ${innosim_man}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${PROJECT_BINARY_DIR}/man
    COMMAND ${INNOSIM_HELP2MAN} --no-info --no-discard-stderr --help-option=--help-all
            --version-string=${PROJECT_VERSION}
            "--name=what InnoDB does to its B+tree pages for a primary-key order"
            --output=${innosim_man} $<TARGET_FILE:innosim>
    DEPENDS innosim
    COMMENT "help2man: man page innosim.1 from innosim --help-all"
    VERBATIM)
  add_custom_target(innosim_man ALL DEPENDS ${innosim_man})
  install(FILES ${innosim_man} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
else()
  message(WARNING "help2man not found: innosim.1 (the man page) is not built, and neither "
                  "`cmake --install` nor the .deb installs one. Install Debian's help2man "
                  "(tools/install-deps.sh does) and configure again.")
endif()
