# Install rules: the shared library, the public headers, a CMake package
# (find_package(tenferro) -> tenferro::tenferro) and a pkg-config file.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS tenferro EXPORT tenferroTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/tenferro DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} FILES_MATCHING PATTERN "*.h" PATTERN "*.hpp")
install(EXPORT tenferroTargets NAMESPACE tenferro:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tenferro)
configure_package_config_file(cmake/tenferroConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/tenferroConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tenferro)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/tenferroConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tenferroConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/tenferroConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/tenferro)
# Relocatable: the prefix is found relative to the .pc file, so any install prefix works.
file(RELATIVE_PATH TFE_PC_RELATIVE_PREFIX "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file(cmake/tenferro.pc.in ${CMAKE_CURRENT_BINARY_DIR}/tenferro.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/tenferro.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
