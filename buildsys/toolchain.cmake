# The cross compiler of an install tree's board, for CMake:
#   cmake -DCMAKE_TOOLCHAIN_FILE=<tree>/lib/cmake/GprofRtos/toolchain.cmake ...
# Bare metal (no operating system), the board's compiler with its CPU and C library flags
# on every compile, and this tree on CMAKE_PREFIX_PATH, so that find_package(GprofRtos)
# finds it. CMake reads this file several times (once per try-compile): it only sets.
include("${CMAKE_CURRENT_LIST_DIR}/GprofRtosBoard.cmake")

set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR ${GPROF_RTOS_ARCH})
set(CMAKE_C_COMPILER ${GPROF_RTOS_CROSS_COMPILE}gcc)
set(CMAKE_CXX_COMPILER ${GPROF_RTOS_CROSS_COMPILE}g++)
set(CMAKE_ASM_COMPILER ${GPROF_RTOS_CROSS_COMPILE}gcc)
# A test program cannot link without the board's startup and linker script: CMake's
# compiler checks build a static library instead.
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
# The CPU flags in the compiler checks too: they select the ABI (RISC-V's compiler is 64-bit
# without -march/-mabi) and the C library's headers.
string(JOIN " " _gprof_rtos_cpu_flags ${GPROF_RTOS_CPU_FLAGS})
foreach(_lang C CXX ASM)
  set(CMAKE_${_lang}_FLAGS_INIT "${_gprof_rtos_cpu_flags}")
endforeach()

get_filename_component(_gprof_rtos_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT _gprof_rtos_prefix IN_LIST CMAKE_PREFIX_PATH)
  list(APPEND CMAKE_PREFIX_PATH "${_gprof_rtos_prefix}")
endif()
