# Finds Debian's libz3-dev (which ships a pkg-config file but no CMake package).
# Defines the imported target Z3::z3.
find_path(Z3_INCLUDE_DIR NAMES z3++.h z3.h)
find_library(Z3_LIBRARY NAMES z3)
if(Z3_INCLUDE_DIR AND EXISTS "${Z3_INCLUDE_DIR}/z3_version.h")
  file(READ "${Z3_INCLUDE_DIR}/z3_version.h" _z3_ver)
  string(REGEX MATCH "Z3_FULL_VERSION[ \t]+\"([0-9.]+)\"" _m "${_z3_ver}")
  set(Z3_VERSION "${CMAKE_MATCH_1}")
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Z3 REQUIRED_VARS Z3_LIBRARY Z3_INCLUDE_DIR VERSION_VAR Z3_VERSION)
if(Z3_FOUND AND NOT TARGET Z3::z3)
  add_library(Z3::z3 UNKNOWN IMPORTED)
  set_target_properties(Z3::z3 PROPERTIES IMPORTED_LOCATION "${Z3_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${Z3_INCLUDE_DIR}")
endif()
mark_as_advanced(Z3_INCLUDE_DIR Z3_LIBRARY)
