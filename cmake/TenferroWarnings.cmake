# Warning flags for C and C++ only (nvcc rejects -Wpedantic on its own generated code).
function(tfe_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Werror=switch>
    $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wpedantic>)
  if(TFE_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX,C>:-Werror>)
  endif()
  if(TFE_SANITIZE)
    # GCC 12 reports maybe-uninitialized false positives in libstdc++ (std::function inside
    # <regex>, pulled in by Catch2) once the sanitizers instrument it.
    target_compile_options(${target} PRIVATE
      $<$<AND:$<COMPILE_LANGUAGE:CXX,C>,$<CXX_COMPILER_ID:GNU>>:-Wno-maybe-uninitialized>)
  endif()
endfunction()
