# SPDX-License-Identifier: MIT
# Precompiled headers: the heavy headers most translation units include (nlohmann/json.hpp alone is
# ~111k preprocessed lines; GoogleTest and Qt's widget headers next) are parsed once per group of
# targets instead of once per file. Included from the top-level CMakeLists.txt after every folder.
# Turn off with -DCMAKE_DISABLE_PRECOMPILE_HEADERS=ON (CMake's own switch).
#
# A group shares one precompiled header (REUSE_FROM) where its targets compile with the same
# position-independence: clang refuses a PCH built with another -fPIC/-fPIE ("is pie differs"),
# and GCC silently ignores it (-Winvalid-pch below makes that visible). Extra or missing -D macros
# are accepted by both as long as the header's own macros agree, which they do here (no target
# defines anything the headers below read).

set(radt_pch_std <algorithm> <cmath> <functional> <map> <memory> <optional> <set> <sstream> <string>
    <vector> <nlohmann/json.hpp>)
set(radt_pch_qt ${radt_pch_std} <QObject> <QString> <QStringList> <QWidget> <QLabel> <QVBoxLayout>
    <QMenu> <QApplication>)
set(radt_pch_test ${radt_pch_std} <gtest/gtest.h>)

# Each group's header is compiled by a target of its own that defines no macro: GCC uses a PCH only
# where every macro defined when it was built is defined alike (a donor linking Boost would force
# BOOST_ALL_NO_LIB on every user), while extra macros in a user are fine. `libraries` give the
# donor the include paths and the usage requirements (Qt's -fPIC and QT_*_LIB) every user has.
file(WRITE ${PROJECT_BINARY_DIR}/radt_pch.cpp "// compiles a precompiled header (resources/PrecompiledHeaders.cmake)\n")
function(radt_share_pch group)
  cmake_parse_arguments(arg "PIC" "" "HEADERS;LIBRARIES;TARGETS;OPTIONS" ${ARGN})
  set(users)
  foreach(target IN LISTS arg_TARGETS)
    if(TARGET ${target})
      list(APPEND users ${target})
    endif()
  endforeach()
  if(NOT users OR CMAKE_DISABLE_PRECOMPILE_HEADERS)
    return()
  endif()
  set(donor radt_pch_${group})
  add_library(${donor} OBJECT ${PROJECT_BINARY_DIR}/radt_pch.cpp)
  target_link_libraries(${donor} PRIVATE ${arg_LIBRARIES})
  if(arg_PIC)
    set_target_properties(${donor} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  endif()
  target_precompile_headers(${donor} PRIVATE ${arg_HEADERS})
  target_compile_options(${donor} PRIVATE ${arg_OPTIONS}) # what its users add (an optimisation level)
  # clang writes the time into a PCH, so every user's ccache hash changed with each build: a warm
  # sanitized tree hit 16 of its compiles. Without it, the PCH is the same bytes each time.
  target_compile_options(${donor} PRIVATE "$<$<CXX_COMPILER_ID:Clang>:SHELL:-Xclang -fno-pch-timestamp>")
  foreach(target IN LISTS users)
    target_precompile_headers(${target} REUSE_FROM ${donor})
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Winvalid-pch>)
  endforeach()
endfunction()

# The production libraries and programs; called from the top-level CMakeLists.txt after every folder.
function(radt_share_production_pch)
# core/: every library position-independent (core/CMakeLists.txt).
radt_share_pch(core PIC HEADERS ${radt_pch_std} LIBRARIES nlohmann_json::nlohmann_json
  TARGETS radt_core_base radt_core_store radt_core_sqlite radt_core_postgres radt_core_analysis radt_core_report
          radt_core_board radt_core_artifacts)
# collector/ and the radt executable: the compiler's default (PIE).
radt_share_pch(collector HEADERS ${radt_pch_std} LIBRARIES nlohmann_json::nlohmann_json
  TARGETS radt_collector_listeners radt_collector radt)
# widgets/: Qt makes each of them -fPIC.
radt_share_pch(widgets HEADERS ${radt_pch_qt} LIBRARIES nlohmann_json::nlohmann_json Qt5::Widgets
  TARGETS radt_widgets_common radt_widgets_runs radt_widgets_chart_engine radt_widgets_chart radt_widgets_board
          radt_widgets_insights radt_widgets_compare radt_widgets_details radt_widgets_launch
          radt_widgets_window radt-explorer)
# tests/ share theirs at the end of tests/CMakeLists.txt (radt_share_test_pch).
endfunction()

# The tests made by radt_add_test: those on the GUI tests' support (Qt, -fPIC) share one header,
# those that link no Qt (PIE) another; the few that link a widgets library alone compile without.
function(radt_share_test_pch)
  get_property(tests GLOBAL PROPERTY RADT_TESTS)
  set(plain radt_test_support radt_e2e_support)
  set(gui)
  set(optimised) # RADT_OPTIMISED_TESTS: -O1, where a header made at -O0 does not serve
  foreach(test IN LISTS tests)
    get_target_property(libraries ${test} LINK_LIBRARIES)
    if("radt_gui_test_support" IN_LIST libraries)
      list(APPEND gui ${test})
    elseif(test IN_LIST RADT_OPTIMISED_TESTS)
      list(APPEND optimised ${test})
    elseif(NOT libraries MATCHES "radt_widgets")
      list(APPEND plain ${test})
    endif()
  endforeach()
  radt_share_pch(tests HEADERS ${radt_pch_test} LIBRARIES nlohmann_json::nlohmann_json GTest::gtest TARGETS ${plain})
  radt_share_pch(optimised_tests HEADERS ${radt_pch_test} LIBRARIES nlohmann_json::nlohmann_json GTest::gtest
    TARGETS ${optimised} OPTIONS -O1)
  radt_share_pch(gui_tests HEADERS ${radt_pch_test} ${radt_pch_qt}
    LIBRARIES nlohmann_json::nlohmann_json GTest::gtest Qt5::Widgets TARGETS radt_gui_test_support ${gui})
endfunction()
