# Writes the names of the d3d12.h enumerations a standard barrier is spelled in, one
# SYNCPROOF_D3D12_NAME(Family, NAME) line each, in header order:
#   cmake -DHEADER=/usr/include/directx/d3d12.h -DOUTPUT=.../d3d12_names.inc -P D3D12Names.cmake
# Only the names are taken here; model/d3d12_names.cpp includes the header itself, so every value
# is the compiler's reading of the header (nothing is retyped). Run at build time by
# model/CMakeLists.txt whenever the header changes.
if(NOT EXISTS "${HEADER}")
  message(FATAL_ERROR "d3d12.h not found at '${HEADER}' (Debian: apt-get install directx-headers-dev)")
endif()
file(READ "${HEADER}" text)
set(families
    "D3D12_RESOURCE_STATES=ResourceState"
    "D3D12_RESOURCE_BARRIER_TYPE=ResourceBarrierType"
    "D3D12_RESOURCE_BARRIER_FLAGS=ResourceBarrierFlag"
    "D3D12_BARRIER_TYPE=BarrierType"
    "D3D12_BARRIER_SYNC=BarrierSync"
    "D3D12_BARRIER_ACCESS=BarrierAccess"
    "D3D12_BARRIER_LAYOUT=BarrierLayout"
    "D3D12_TEXTURE_BARRIER_FLAGS=TextureBarrierFlag")
set(out "// Generated from ${HEADER} by cmake/D3D12Names.cmake: do not edit.\n")
foreach(entry ${families})
  string(REPLACE "=" ";" pair "${entry}")
  list(GET pair 0 type)
  list(GET pair 1 family)
  # The body of `enum TYPE { ... } TYPE;` (the header's MIDL layout).
  string(REGEX MATCH "enum ${type}[ \t\r\n]*{([^}]*)}[ \t\r\n]*${type};" block "${text}")
  if(NOT block)
    message(FATAL_ERROR "${HEADER}: no enum ${type}")
  endif()
  set(body "${CMAKE_MATCH_1}")
  string(REGEX MATCHALL "(^|\n)[ \t]*D3D12_[A-Z0-9_]+[ \t]*=" lines "${body}")
  set(count 0)
  foreach(line ${lines})
    string(REGEX REPLACE "[ \t\r\n=]" "" name "${line}")
    string(APPEND out "SYNCPROOF_D3D12_NAME(${family}, ${name})\n")
    math(EXPR count "${count} + 1")
  endforeach()
  if(count EQUAL 0)
    message(FATAL_ERROR "${HEADER}: enum ${type} has no constants")
  endif()
endforeach()
# Rewrite only on change, so that a rebuild does not recompile for nothing.
if(EXISTS "${OUTPUT}")
  file(READ "${OUTPUT}" old)
  if(old STREQUAL out)
    return()
  endif()
endif()
file(WRITE "${OUTPUT}" "${out}")
