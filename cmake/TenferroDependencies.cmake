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

# SLEEF (libsleef-dev): vectorised elementwise math on x86-64 (src/backend/cpu/vector_math*).
# Without it, or on another architecture, the kernels use their scalar loops.
find_path(TFE_SLEEF_INCLUDE_DIR sleef.h PATHS /usr/include/x86_64-linux-gnu /usr/include)
find_library(TFE_SLEEF_LIBRARY NAMES sleef)
add_library(tfe_sleef INTERFACE)
if(TFE_SLEEF_INCLUDE_DIR AND TFE_SLEEF_LIBRARY AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(TFE_HAVE_SLEEF ON)
  target_include_directories(tfe_sleef SYSTEM INTERFACE ${TFE_SLEEF_INCLUDE_DIR})
  target_link_libraries(tfe_sleef INTERFACE ${TFE_SLEEF_LIBRARY})
  message(STATUS "tenferro: SLEEF ${TFE_SLEEF_LIBRARY} (vectorised elementwise math)")
else()
  set(TFE_HAVE_SLEEF OFF)
  message(STATUS "tenferro: SLEEF not found (install libsleef-dev): scalar elementwise math")
endif()
