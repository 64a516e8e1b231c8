# `cmake --install BUILD [--prefix DIR]`: what an engine's test build needs, and no more:
#   include/syncproof/record.h, d3d12_xs.h, version.h   the public headers (internal ones stay
#                                                        private: nothing else is installed)
#   lib/libsyncproof.a        one archive: the record library and every library it needs
#                             (model, lang, properties, encode, solver, stream, util, ...),
#                             merged and stripped of debug information
#   lib/cmake/syncproof/      syncproofConfig.cmake: the imported target syncproof::syncproof
#   bin/syncproof             the command line (stripped)
# so that another project's
#   find_package(syncproof REQUIRED)
#   target_link_libraries(engine_tests PRIVATE syncproof::syncproof)
# builds against the recording API (C++17 or later: the target carries cxx_std_17).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# The record library's link closure: the project's libraries (merged into the archive) and the
# others (the consumer links them: fmt, Z3, pugixml, Threads, ...).
set(internal "")
set(external "")
set(todo record)
get_property(project_libs GLOBAL PROPERTY SYNCPROOF_LIBRARIES)
while(todo)
  list(POP_FRONT todo lib)
  if(lib IN_LIST internal)
    continue()
  endif()
  list(APPEND internal ${lib})
  get_target_property(deps ${lib} LINK_LIBRARIES)
  foreach(dep ${deps})
    if(dep IN_LIST project_libs)
      list(APPEND todo ${dep})
    elseif(TARGET ${dep} AND NOT dep IN_LIST external)
      list(APPEND external ${dep})
    endif()
  endforeach()
endwhile()
set(archive_libs "")
foreach(lib ${internal})
  get_target_property(type ${lib} TYPE)
  if(type STREQUAL "STATIC_LIBRARY")
    list(APPEND archive_libs ${lib})
  endif()
endforeach()

set(combined ${PROJECT_BINARY_DIR}/libsyncproof.a)
set(mri "create ${combined}\n")
foreach(lib ${archive_libs})
  string(APPEND mri "addlib $<TARGET_FILE:${lib}>\n")
endforeach()
string(APPEND mri "save\nend\n")
file(GENERATE OUTPUT ${PROJECT_BINARY_DIR}/libsyncproof.mri CONTENT "${mri}")
set(archive_files "")
foreach(lib ${archive_libs})
  list(APPEND archive_files $<TARGET_FILE:${lib}>)
endforeach()
find_program(SYNCPROOF_STRIP NAMES strip REQUIRED)
add_custom_command(
  OUTPUT ${combined}
  COMMAND ${CMAKE_COMMAND} -E rm -f ${combined}
  COMMAND sh -c "'${CMAKE_AR}' -M < '${PROJECT_BINARY_DIR}/libsyncproof.mri'"
  COMMAND ${SYNCPROOF_STRIP} --strip-debug ${combined}
  DEPENDS ${archive_libs} ${archive_files} ${PROJECT_BINARY_DIR}/libsyncproof.mri
  COMMENT "Merging ${archive_libs} into libsyncproof.a (without debug information)"
  VERBATIM)
add_custom_target(syncproof_archive ALL DEPENDS ${combined})

install(FILES ${combined} DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/record/include/syncproof/record.h
              ${PROJECT_SOURCE_DIR}/record/include/syncproof/d3d12_xs.h
              ${PROJECT_BINARY_DIR}/include/syncproof/version.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/syncproof)
install(PROGRAMS $<TARGET_FILE:syncproof> DESTINATION ${CMAKE_INSTALL_BINDIR})
install(CODE "execute_process(COMMAND ${SYNCPROOF_STRIP}
                              \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/syncproof\")")

# What syncproofConfig.cmake gives the imported target.
set(SYNCPROOF_EXTERNAL_LIBS "${external}")
# SYNCPROOF_D3D12_INCLUDES: d3d12.h's include path (model/CMakeLists.txt).
set(SYNCPROOF_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/syncproof)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/syncproofConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/syncproofConfig.cmake
                              INSTALL_DESTINATION ${SYNCPROOF_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/syncproofConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/syncproofConfig.cmake
              ${PROJECT_BINARY_DIR}/syncproofConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/FindZ3.cmake
        DESTINATION ${SYNCPROOF_CMAKE_DIR})
