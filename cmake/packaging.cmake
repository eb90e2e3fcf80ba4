# What `cmake --install` puts beside the programs and libraries (their own
# install rules are in src/), and the Debian package `cpack -G DEB` makes of
# all of it: cuzk, cuzkd with its systemd unit and an example configuration
# (when cuzkd is built), libcuzk.so with cuzk/cuzk.h, the CMake package and
# the pkg-config file. tests/package/deb_test.sh builds and inspects it.
include(GNUInstallDirs)

# The README with the docs/ it links to.
install(FILES README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs DESTINATION ${CMAKE_INSTALL_DOCDIR})

# `installable`: every target whose file `cmake --install` copies, so that a
# build of part of the tree (scripts/example.sh builds cuzk alone) can be made
# ready for it: cmake --build build --target installable.
add_custom_target(installable)
add_dependencies(installable cuzk cuzk_c cuzk_supraseal)
set(_cuzk_installed $<TARGET_FILE:cuzk> $<TARGET_FILE:cuzk_c> $<TARGET_FILE:cuzk_supraseal>)
if(TARGET cuzkd)
  add_dependencies(installable cuzkd)
  list(APPEND _cuzk_installed $<TARGET_FILE:cuzkd>)
endif()
file(GENERATE OUTPUT ${CMAKE_BINARY_DIR}/cuzk-install-check.cmake CONTENT "
set(files \"${_cuzk_installed}\")
foreach(f IN LISTS files)
  if(NOT EXISTS \"\${f}\")
    message(FATAL_ERROR \"cuzk: \${f} is not built: cmake --install copies what cmake --build ${CMAKE_BINARY_DIR} --target installable builds\")
  endif()
endforeach()
")
if(TARGET cuzkd)
  # The unit names cuzkd's installed path, which is known at install time
  # only (cpack installs under /usr, `cmake --install --prefix` anywhere).
  set(unit ${CMAKE_CURRENT_BINARY_DIR}/packaging/cuzkd.service)
  install(CODE "
    set(CUZK_BIN_DIR \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
    set(CUZK_DOC_DIR \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_DOCDIR}\")
    configure_file(\"${PROJECT_SOURCE_DIR}/packaging/cuzkd.service.in\" \"${unit}\" @ONLY)
    file(INSTALL \"${unit}\" DESTINATION \"\${CMAKE_INSTALL_PREFIX}/lib/systemd/system\")")
  install(FILES packaging/cuzkd.toml DESTINATION ${CMAKE_INSTALL_DOCDIR})
  # The dashboard and the alert rules over cuzkd's metrics, for the operator
  # to import and to list in Prometheus's rule_files: data, not configuration
  # (installing into /etc/prometheus would edit another package's settings).
  install(FILES packaging/grafana/cuzk.json DESTINATION ${CMAKE_INSTALL_DATADIR}/cuzk/grafana)
  install(FILES packaging/prometheus/cuzk-rules.yml DESTINATION ${CMAKE_INSTALL_DATADIR}/cuzk/prometheus)
endif()

# A package carries every architecture (cmake/cuda_archs.cmake): one built for
# fewer (CUZK_CUDA_ARCHS or CMAKE_CUDA_ARCHITECTURES narrowed, as for a quick
# build) refuses the GPUs left out, so configure, cpack and cmake --install say
# which.
if(CUZK_HAVE_CUDA)
  set(_cuzk_missing "")
  foreach(arch IN LISTS CUZK_CUDA_ARCHS_ALL)
    if(NOT "sm_${arch}" IN_LIST CUZK_CUDA_ARCHS_BUILT)
      list(APPEND _cuzk_missing sm_${arch})
    endif()
  endforeach()
  list(GET CUZK_CUDA_ARCHS_ALL -1 _cuzk_newest)
  if(NOT "compute_${_cuzk_newest}" IN_LIST CUZK_CUDA_ARCHS_BUILT)
    list(APPEND _cuzk_missing compute_${_cuzk_newest})
  endif()
  if(_cuzk_missing)
    string(REPLACE ";" " " _cuzk_missing "${_cuzk_missing}")
    set(_cuzk_warning "this build is not for packages: it lacks ${_cuzk_missing}, so GPUs of those architectures get an error instead of proofs from what cpack and cmake --install make of it. For a package, configure without CUZK_CUDA_ARCHS and CMAKE_CUDA_ARCHITECTURES.")
    message(WARNING "cuzk: ${_cuzk_warning}")
    install(CODE "message(WARNING \"cuzk: ${_cuzk_warning}\")")
  endif()
endif()

set(CPACK_PACKAGE_NAME cuzk)
set(CPACK_PACKAGE_VENDOR cuzk)
set(CPACK_PACKAGE_CONTACT "cuzk maintainers <cuzk@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Groth16 prover for BN254 and BLS12-381 (CPU and CUDA), snarkjs- and rapidsnark-compatible")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# The shared libraries the programs link (gRPC's, GMP's, CUDA's runtime is
# static) become the package's dependencies, as dpkg-shlibdeps finds them.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The job queue loads libpq when it first connects (src/queue/libpq.hpp), so
# dpkg-shlibdeps does not see it: recommended, as only the queue needs it.
if(CUZK_HAVE_QUEUE)
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS libpq5)
endif()
# libcuzk.so.0 is a public library: ldconfig runs after install and removal.
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
if(TARGET cuzkd)
  # The unit runs cuzkd as the system user cuzk, which packaging/postinst
  # creates (with adduser) and runs ldconfig for the library as well.
  set(CPACK_DEBIAN_PACKAGE_DEPENDS adduser)
  set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/packaging/postinst)
  set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
endif()
include(CPack)
