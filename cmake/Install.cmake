# `cmake --install BUILD [--prefix DIR]`: the static libraries (lib/libsyncproof_*.a), every
# header (include/syncproof/FOLDER/*.h, the public include/syncproof/record.h and version.h) and
# lib/cmake/syncproof/syncproofConfig.cmake, so that another project's
#   find_package(syncproof REQUIRED)
#   target_link_libraries(engine_tests PRIVATE syncproof::syncproof)
# builds against the recording API. syncproof::syncproof (the record/ library) keeps the engines
# private; the other libraries are exported as syncproof::<folder> for those who want them.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(SYNCPROOF_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/syncproof)
get_property(libs GLOBAL PROPERTY SYNCPROOF_LIBRARIES)
list(REMOVE_ITEM libs cli)  # the command line is not a library for others
set_target_properties(record PROPERTIES EXPORT_NAME syncproof)
install(TARGETS ${libs} EXPORT syncproofTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
foreach(lib ${libs})
  if(lib STREQUAL "record")
    continue()
  endif()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${lib}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/syncproof/${lib}
          FILES_MATCHING PATTERN "*.h")
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/record/include/syncproof/record.h
              ${PROJECT_BINARY_DIR}/include/syncproof/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/syncproof)
target_include_directories(record INTERFACE $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
install(EXPORT syncproofTargets NAMESPACE syncproof:: DESTINATION ${SYNCPROOF_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/syncproofConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/syncproofConfig.cmake
                              INSTALL_DESTINATION ${SYNCPROOF_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/syncproofConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/syncproofConfig.cmake
              ${PROJECT_BINARY_DIR}/syncproofConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FindZ3.cmake
        DESTINATION ${SYNCPROOF_CMAKE_DIR})
