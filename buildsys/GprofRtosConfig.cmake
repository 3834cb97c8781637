# find_package(GprofRtos CONFIG): the profiling package of the install tree this file is in,
# built for one board (make BOARD=<board> install). Gives
#   GprofRtos::profile   an imported target: the headers, libprofile.a with the C library,
#                        the board's linker script, its CPU, compile and link flags
#   gprof_rtos_instrument(<target> [AUTOSTART])
#                        builds <target>'s sources with -pg (and what the architecture adds)
#                        and links it with GprofRtos::profile; AUTOSTART (an executable):
#                        profiled from before main, gmon.out written at exit by semihosting
#   GPROF_RTOS_BOARD, GPROF_RTOS_PREFIX, GPROF_RTOS_OPT (the -O the package is tested with),
#   GPROF_RTOS_GPROF (the board's GNU gprof), GPROF_RTOS_RUN (bin/run-qemu, on boards with
#   one), GPROF_RTOS_GDB_SCRIPT (share/gprof.gdb)
# The flags come from GprofRtosBoard.cmake, which make install writes from the facts
# lib/profile.mk and lib/pkgconfig/gprof-rtos.pc are written from.
if(CMAKE_VERSION VERSION_LESS 3.15)
  message(FATAL_ERROR "GprofRtos needs CMake 3.15 or later (this is ${CMAKE_VERSION})")
endif()
include("${CMAKE_CURRENT_LIST_DIR}/GprofRtosBoard.cmake")

get_filename_component(GPROF_RTOS_PREFIX "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(GPROF_RTOS_GPROF ${GPROF_RTOS_CROSS_COMPILE}gprof)
set(GPROF_RTOS_GDB_SCRIPT "${GPROF_RTOS_PREFIX}/share/gprof.gdb")
if(GPROF_RTOS_RUNNER)
  set(GPROF_RTOS_RUN "${GPROF_RTOS_PREFIX}/${GPROF_RTOS_RUNNER}")
endif()

if(NOT TARGET GprofRtos::profile)
  set(_gprof_rtos_lib "${GPROF_RTOS_PREFIX}/lib")
  set(_gprof_rtos_compile ${GPROF_RTOS_C_FLAGS})
  set(_gprof_rtos_link ${GPROF_RTOS_LINK_FLAGS})
  # The CPU and C library flags once: left out here when the flags of the project's C and
  # C++ (those enabled) have them all (this tree's toolchain.cmake puts them there, and
  # CMake passes them to every compile and link), for a C library's specs file given twice
  # is an error.
  get_property(_gprof_rtos_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  set(_gprof_rtos_checked FALSE)
  set(_gprof_rtos_missing FALSE)
  foreach(_lang IN ITEMS C CXX)
    if(_lang IN_LIST _gprof_rtos_languages)
      set(_gprof_rtos_checked TRUE)
      separate_arguments(_gprof_rtos_given UNIX_COMMAND "${CMAKE_${_lang}_FLAGS}")
      foreach(_flag IN LISTS GPROF_RTOS_CPU_FLAGS)
        if(NOT _flag IN_LIST _gprof_rtos_given)
          set(_gprof_rtos_missing TRUE)
        endif()
      endforeach()
    endif()
  endforeach()
  if(_gprof_rtos_checked AND NOT _gprof_rtos_missing)
    list(REMOVE_ITEM _gprof_rtos_compile ${GPROF_RTOS_CPU_FLAGS})
    list(REMOVE_ITEM _gprof_rtos_link ${GPROF_RTOS_CPU_FLAGS})
  endif()
  if(GPROF_RTOS_LINKER_SCRIPT)
    list(APPEND _gprof_rtos_link "-T${_gprof_rtos_lib}/${GPROF_RTOS_LINKER_SCRIPT}")
  endif()
  list(APPEND _gprof_rtos_link "-L${_gprof_rtos_lib}")
  # (the link options before the objects, the libraries after them, as lib/profile.mk's
  # PROFILE_LDFLAGS and PROFILE_LIBS: the group lets libprofile.a's C library glue and the C
  # library resolve each other)
  file(GLOB _gprof_rtos_link_depends "${_gprof_rtos_lib}/*.ld")
  add_library(GprofRtos::profile INTERFACE IMPORTED)
  set_target_properties(GprofRtos::profile PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${GPROF_RTOS_PREFIX}/include"
    INTERFACE_COMPILE_OPTIONS "${_gprof_rtos_compile}"
    INTERFACE_LINK_OPTIONS "${_gprof_rtos_link}"
    INTERFACE_LINK_LIBRARIES "${GPROF_RTOS_LIBS}"
    INTERFACE_LINK_DEPENDS "${_gprof_rtos_lib}/libprofile.a;${_gprof_rtos_link_depends}")
endif()

function(gprof_rtos_instrument target)
  cmake_parse_arguments(PARSE_ARGV 1 _arg "AUTOSTART" "" "")
  if(_arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "gprof_rtos_instrument(${target}): unknown argument(s) ${_arg_UNPARSED_ARGUMENTS} (the only option is AUTOSTART)")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "gprof_rtos_instrument(${target}): no such target (call it after add_executable or add_library)")
  endif()
  get_target_property(_type ${target} TYPE)
  if(NOT _type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|OBJECT_LIBRARY)$")
    message(FATAL_ERROR "gprof_rtos_instrument(${target}): a ${_type} has no sources to instrument here (an executable, a static or an object library has)")
  endif()
  if(_arg_AUTOSTART AND NOT _type STREQUAL EXECUTABLE)
    message(FATAL_ERROR "gprof_rtos_instrument(${target} AUTOSTART): AUTOSTART is a link option: give it to the executable")
  endif()
  # (C and C++ only: assembly gets no mcount calls)
  target_compile_options(${target} PRIVATE "$<$<COMPILE_LANGUAGE:C,CXX>:${GPROF_RTOS_PG_FLAGS}>")
  # The properties target_link_libraries(PRIVATE) sets, set directly: that command refuses
  # its keyword form on a target whose links were given in the plain form, and the other way.
  set_property(TARGET ${target} APPEND PROPERTY LINK_LIBRARIES GprofRtos::profile)
  if(NOT _type STREQUAL EXECUTABLE)
    set_property(TARGET ${target} APPEND PROPERTY INTERFACE_LINK_LIBRARIES "$<LINK_ONLY:GprofRtos::profile>")
  endif()
  if(_arg_AUTOSTART)
    target_link_options(${target} PRIVATE ${GPROF_RTOS_AUTOSTART_FLAGS})
  endif()
endfunction()
