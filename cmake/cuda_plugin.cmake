# The CUDA device plugin libtenferro_cuda.so (src/backend/cuda): a separate shared library that
# libtenferro loads with dlopen on first use, so the library itself never links the CUDA runtime.
# TFE_CUDA=AUTO builds it when nvcc and the CUDA toolkit are found; ON requires them; OFF skips.
set(TFE_CUDA AUTO CACHE STRING "Build the CUDA device plugin: AUTO, ON or OFF")
set_property(CACHE TFE_CUDA PROPERTY STRINGS AUTO ON OFF)
set(TFE_HAVE_CUDA_PLUGIN OFF)

function(tfe_cuda_unavailable reason)
  if(TFE_CUDA STREQUAL "ON")
    message(FATAL_ERROR "tenferro: TFE_CUDA=ON but ${reason}")
  endif()
  message(STATUS "tenferro: CUDA plugin not built (${reason})")
endfunction()

if(TFE_CUDA STREQUAL "OFF")
  message(STATUS "tenferro: CUDA plugin not built (TFE_CUDA=OFF)")
elseif(TFE_SANITIZE OR TFE_BUILD_FUZZ)
  # The sanitizer and fuzzer flags are added to every language; nvcc does not take them.
  tfe_cuda_unavailable("sanitizer and fuzzer builds do not build it")
else()
  include(CheckLanguage)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures of the plugin")
  endif()
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    find_package(CUDAToolkit QUIET)
  endif()
  if(NOT CMAKE_CUDA_COMPILER OR NOT CUDAToolkit_FOUND OR NOT TARGET CUDA::cublas
     OR NOT TARGET CUDA::cusolver)
    tfe_cuda_unavailable("no nvcc with the CUDA toolkit, cuBLAS and cuSOLVER found")
  else()
    set(TFE_HAVE_CUDA_PLUGIN ON)
  endif()
endif()

if(TFE_HAVE_CUDA_PLUGIN)
  if(CMAKE_CXX_COMPILER_LAUNCHER AND NOT CMAKE_CUDA_COMPILER_LAUNCHER)
    set(CMAKE_CUDA_COMPILER_LAUNCHER ${CMAKE_CXX_COMPILER_LAUNCHER})
  endif()
  enable_language(CUDA)
  # CMake 3.25 does not know nvcc's C++20 flag (nvcc 12 and later take -std=c++20).
  if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
  endif()

  file(GLOB TFE_CUDA_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/backend/cuda/*.cu)
  add_library(tenferro_cuda SHARED ${TFE_CUDA_SOURCES})
  target_include_directories(tenferro_cuda PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src
                             ${CMAKE_CURRENT_SOURCE_DIR}/include)
  target_link_libraries(tenferro_cuda PRIVATE CUDA::cudart_static CUDA::cublas CUDA::cusolver)
  set(TFE_CUDA_MAP ${CMAKE_CURRENT_SOURCE_DIR}/src/backend/cuda/plugin.map)
  set_target_properties(tenferro_cuda PROPERTIES CUDA_STANDARD 20 CUDA_STANDARD_REQUIRED ON
    CUDA_EXTENSIONS OFF CUDA_VISIBILITY_PRESET hidden VISIBILITY_INLINES_HIDDEN ON CUDA_RUNTIME_LIBRARY Static
    LINK_DEPENDS ${TFE_CUDA_MAP})
  # cuBLAS and cuSOLVER are found in the toolkit the plugin was built against, wherever the
  # dynamic loader looks.
  set_target_properties(tenferro_cuda PROPERTIES BUILD_RPATH "${CUDAToolkit_LIBRARY_DIR}"
                        INSTALL_RPATH "${CUDAToolkit_LIBRARY_DIR}")
  target_link_options(tenferro_cuda PRIVATE -Wl,--version-script=${TFE_CUDA_MAP} -Wl,--no-undefined)
  # --fmad=false: no contraction of a*b+c into one rounding, so complex products and sums give
  # the CPU backend's bits (z * conj(z) keeps an exactly zero imaginary part).
  target_compile_options(tenferro_cuda PRIVATE
    $<$<COMPILE_LANGUAGE:CUDA>:--fmad=false -Xcompiler=-Wall,-Wextra,-fvisibility=hidden>)
  if(TFE_WERROR)
    target_compile_options(tenferro_cuda PRIVATE
      $<$<COMPILE_LANGUAGE:CUDA>:-Werror=all-warnings -Xcompiler=-Werror>)
  endif()
  install(TARGETS tenferro_cuda LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
endif()
