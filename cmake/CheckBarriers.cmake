# docs/BARRIERS.md must be what `syncproof barrier --table` prints now: regenerate it with
#   build/syncproof barrier --table > docs/BARRIERS.md
# when the model, the cost table or the search changes. Usage:
#   cmake -DSYNCPROOF=<binary> -DROOT=<source dir> -DOUT=<scratch file> -P CheckBarriers.cmake
execute_process(COMMAND ${SYNCPROOF} barrier --table -j 2 OUTPUT_FILE ${OUT} RESULT_VARIABLE rc
                TIMEOUT 1200)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "syncproof barrier --table failed (exit ${rc})")
endif()
file(READ ${OUT} now)
file(READ ${ROOT}/docs/BARRIERS.md checked_in)
if(NOT now STREQUAL checked_in)
  message(FATAL_ERROR "docs/BARRIERS.md is stale: regenerate it with "
                      "`build/syncproof barrier --table > docs/BARRIERS.md` (the new table is ${OUT})")
endif()
