# Runs clang-format --dry-run --Werror over the project's C++ sources (tracked by git when
# available, else found by glob) and fails when any file is not formatted.
file(GLOB_RECURSE files ${ROOT}/model/*.[ch]* ${ROOT}/lang/*.[ch]* ${ROOT}/encode/*.[ch]*
     ${ROOT}/properties/*.[ch]* ${ROOT}/solver/*.[ch]* ${ROOT}/exec/*.[ch]* ${ROOT}/tools/*.[ch]*
     ${ROOT}/tests/*.[ch]* ${ROOT}/bench/*.[ch]* ${ROOT}/fuzz/*.[ch]* ${ROOT}/util/*.[ch]*
     ${ROOT}/report/*.[ch]* ${ROOT}/viz/*.[ch]* ${ROOT}/stream/*.[ch]* ${ROOT}/record/*.[ch]*
     ${ROOT}/synth/*.[ch]* ${ROOT}/examples/*.[ch]*)
list(FILTER files INCLUDE REGEX "\\.(cpp|h)$")
execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${files}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "unformatted files (run: clang-format -i <file>):\n${err}")
endif()
