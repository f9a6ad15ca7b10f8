# Runs EMITTER with the argument WHAT and compares its output with EXPECTED (a committed
# generated file).
execute_process(COMMAND ${EMITTER} ${WHAT} OUTPUT_VARIABLE got RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EMITTER} ${WHAT} failed with ${rc}")
endif()
file(READ ${EXPECTED} want)
if(NOT got STREQUAL want)
  message(FATAL_ERROR "${EXPECTED} is stale: regenerate it with ${EMITTER} ${WHAT} > ${EXPECTED}")
endif()
