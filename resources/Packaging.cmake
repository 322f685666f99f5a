# SPDX-License-Identifier: MIT
# Debian packages (cpack -G DEB): `radt`, the collector without any Qt dependency, and
# `radt-explorer`, which depends on it. Library dependencies are computed by dpkg-shlibdeps.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME radt-explorer)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "radt-explorer")
set(CPACK_PACKAGE_CONTACT "radt-explorer developers <radt-explorer@users.noreply.invalid>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL collector)
if(BUILD_GUI)
  list(APPEND CPACK_COMPONENTS_ALL explorer)
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_COLLECTOR_PACKAGE_NAME radt)
set(CPACK_DEBIAN_COLLECTOR_PACKAGE_RECOMMENDS "python3")
set(CPACK_DEBIAN_COLLECTOR_PACKAGE_SUGGESTS "postgresql-client")
set(CPACK_COMPONENT_COLLECTOR_DESCRIPTION
    "resource-aware tracker for GPU training benchmarks (collector)\n radt runs a training script or a radT experiment CSV under listeners (nvidia-smi,\n dcgmi, /proc, RAPL) and records hardware and software metrics into an MLflow\n tracking store (SQLite or PostgreSQL); radt report computes energy, utilisation,\n burst/idle and collocation figures. No Qt needed: for GPU servers.")
set(CPACK_DEBIAN_EXPLORER_PACKAGE_NAME radt-explorer)
set(CPACK_DEBIAN_EXPLORER_PACKAGE_DEPENDS "radt (= ${PROJECT_VERSION})")
set(CPACK_COMPONENT_EXPLORER_DESCRIPTION
    "desktop explorer for GPU training benchmarks recorded by radt\n radt-explorer shows experiments, workloads and runs of an MLflow tracking store,\n charts any metric over many runs, streams running runs, launches workloads,\n opens and saves radT board files and exports charts; its Insights view gives\n energy, efficiency and collocation figures.")
include(CPack)

# Each package's /usr/share/doc/<package>/copyright, in Debian's machine-readable format (Debian
# Policy 12.5): the project's MIT licence and what it links.
install(FILES ${PROJECT_SOURCE_DIR}/resources/debian/copyright DESTINATION share/doc/radt COMPONENT collector)
if(BUILD_GUI)
  install(FILES ${PROJECT_SOURCE_DIR}/resources/debian/copyright DESTINATION share/doc/radt-explorer
          COMPONENT explorer)
endif()
