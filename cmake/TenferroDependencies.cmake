# Required: a C++20 compiler, OpenBLAS (CBLAS) and LAPACKE. Everything optional is detected by
# the folder that needs it and skipped with a one-line message.
find_package(Threads REQUIRED)

find_path(TFE_CBLAS_INCLUDE_DIR cblas.h
  PATH_SUFFIXES openblas-pthread openblas x86_64-linux-gnu/openblas-pthread
  PATHS /usr/include/x86_64-linux-gnu /usr/include)
find_library(TFE_OPENBLAS_LIBRARY NAMES openblas)
find_path(TFE_LAPACKE_INCLUDE_DIR lapacke.h)
find_library(TFE_LAPACKE_LIBRARY NAMES lapacke)
if(NOT TFE_CBLAS_INCLUDE_DIR OR NOT TFE_OPENBLAS_LIBRARY)
  message(FATAL_ERROR "OpenBLAS not found: install libopenblas-dev (scripts/setup-deps.sh does)")
endif()
if(NOT TFE_LAPACKE_INCLUDE_DIR OR NOT TFE_LAPACKE_LIBRARY)
  message(FATAL_ERROR "LAPACKE not found: install liblapacke-dev (scripts/setup-deps.sh does)")
endif()

add_library(tfe_openblas INTERFACE)
target_include_directories(tfe_openblas SYSTEM INTERFACE ${TFE_CBLAS_INCLUDE_DIR} ${TFE_LAPACKE_INCLUDE_DIR})
target_link_libraries(tfe_openblas INTERFACE ${TFE_LAPACKE_LIBRARY} ${TFE_OPENBLAS_LIBRARY})
message(STATUS "tenferro: OpenBLAS ${TFE_OPENBLAS_LIBRARY}, LAPACKE ${TFE_LAPACKE_LIBRARY}")
