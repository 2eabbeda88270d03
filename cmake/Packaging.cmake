# `cpack -G DEB` (run in the build folder): a Debian package of what
# cmake/Install.cmake installs, under /usr. Its Depends line is computed by
# dpkg-shlibdeps from the shared libraries the binary links (Debian 12's
# libabsl, libmariadb, libstdc++, ...), not typed by hand; check it with
# `dpkg-deb -I innosim_*.deb`.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME innosim)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "simulator of what InnoDB does to its B+tree pages for a primary-key order")
set(CPACK_PACKAGE_CONTACT "innosim maintainers <innosim@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# innosim measure starts a private mariadbd, found at run time: a
# suggestion, not a dependency.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "mariadb-server")
include(CPack)
