# Install layout and the Debian package (CPack), docs/install.md. Included by the top-level CMakeLists.txt
# after every target exists.
#
#   <prefix>/bin/cnp, cnp-workbench, cnpt-dump
#   <prefix>/lib/cnp/libcnp-collector.so          (collectors/cupti; found by cnp from bin/../lib/cnp)
#   <prefix>/share/cnp/resources/                 (rules, plans, synth, demo, workloads; core/ResourceDir)
#   <prefix>/share/applications/cnp-workbench.desktop, share/mime/packages/cnp-workbench.xml,
#   <prefix>/share/icons/hicolor/scalable/apps/cnp-workbench.svg
#
# `scripts/package` builds the .deb (cpack -G DEB); tests/package/tst_debpackage installs it into a clean
# folder and into a container made of the files of exactly the packages it depends on.
include(GNUInstallDirs)
set(CNP_PACKAGING_DIR ${CMAKE_CURRENT_LIST_DIR})

install(TARGETS cnp RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET cnpt-dump)
  install(TARGETS cnpt-dump RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY ${CNP_SOURCE_DIR}/resources/ DESTINATION ${CMAKE_INSTALL_DATADIR}/cnp/resources
        PATTERN packaging EXCLUDE PATTERN container EXCLUDE)
if(TARGET cnp-workbench)
  install(TARGETS cnp-workbench RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(FILES ${CNP_PACKAGING_DIR}/cnp-workbench.desktop DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
  install(FILES ${CNP_PACKAGING_DIR}/cnp-workbench.xml DESTINATION ${CMAKE_INSTALL_DATADIR}/mime/packages)
  install(FILES ${CNP_PACKAGING_DIR}/cnp-workbench.svg
          DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps)
endif()

# One package per build: `cnp-workbench` (CLI, workbench, collector) or, configured with CNP_CLI_ONLY=ON,
# `cnp` (no Qt: headless nodes and images). Depends comes from dpkg-shlibdeps on the installed binaries;
# the collector's libcupti is the traced container's (CUDA's folder is passed as private, so it is no
# dependency).
if(CNP_CLI_ONLY)
  set(CPACK_PACKAGE_NAME cnp)
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "CNP Workbench command line: GPU training traces to ablation answers")
else()
  set(CPACK_PACKAGE_NAME cnp-workbench)
  set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "GPU training-job performance workbench: ablations, timeline, kernels")
endif()
set(CPACK_PACKAGE_DESCRIPTION
    "Ingests CUPTI (cnp collector), PyTorch-profiler (Kineto) and Nsight Systems traces of GPU training\n\
runs into SQLite workspaces and shows what each configuration of an ablation study bought: step times\n\
with confidence intervals, an interactive timeline, kernel tables, insights, HTML/PDF/CSV reports.")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "CNP Workbench")
set(CPACK_PACKAGE_CONTACT "CNP Workbench engineers <cnp-workbench@localhost>")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(CNP_CUPTI_LIBRARY)
  get_filename_component(_cnp_cupti_private ${CNP_CUPTI_LIBRARY} DIRECTORY)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${_cnp_cupti_private})
endif()
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-dejavu-core")
# zstd: dpkg reads it since Debian 12, and it packs the ~40 MB payload several times faster than xz.
set(CPACK_DEBIAN_COMPRESSION_TYPE zstd)
include(CPack)
