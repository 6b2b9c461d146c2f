# Extra targets for the collector tests (included from tests/CMakeLists.txt after the area's tests exist):
#  - fake_cupti: a stand-in libcupti.so.13 and collector_harness, which load the real libcnp-collector.so
#    without CUDA (tst_collectorprocess);
#  - tst_recordtranslator links the CUPTI record translator (CUPTI headers only).
# Without CUPTI headers these targets are absent and the tests that need them QSKIP.
if(TARGET collector_tst_recordtranslator AND TARGET cnp_cupti_translate)
  target_link_libraries(collector_tst_recordtranslator PRIVATE cnp_cupti_translate)
  target_compile_definitions(collector_tst_recordtranslator PRIVATE CNP_HAVE_CUPTI_HEADERS=1)
endif()
foreach(t collector_tst_capturespec collector_tst_bufferpool collector_tst_memorybudget)
  if(TARGET ${t})
    target_link_libraries(${t} PRIVATE cnp_collector_core)
  endif()
endforeach()
foreach(t collector_tst_cmdcollect collector_tst_launchlocal collector_tst_clirun collector_tst_launchdocker
          collector_tst_launchpodman)
  if(TARGET ${t})
    add_dependencies(${t} cnp)
  endif()
endforeach()
if(TARGET cnp-collector)
  set(_fake_dir ${CMAKE_CURRENT_LIST_DIR}/fake_cupti)
  add_library(fake_cupti SHARED ${_fake_dir}/FakeCupti.cpp)
  target_include_directories(fake_cupti SYSTEM PRIVATE ${CNP_CUPTI_INCLUDE_DIR} ${CNP_CUDA_INCLUDE_DIR})
  set_target_properties(fake_cupti PROPERTIES NO_SONAME ON LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/fake)
  target_link_options(fake_cupti PRIVATE -Wl,-soname,libcupti.so.13 -Wl,--version-script=${_fake_dir}/libcupti.map)
  add_executable(collector_harness ${CMAKE_CURRENT_LIST_DIR}/harness/CollectorHarness.cpp)
  target_include_directories(collector_harness SYSTEM PRIVATE ${CNP_CUDA_INCLUDE_DIR}) # NVTX 3 (header-only)
  target_link_libraries(collector_harness PRIVATE ${CMAKE_DL_LIBS})
  foreach(t collector_tst_collectorprocess collector_tst_cmdcollect collector_tst_launchlocal
            collector_tst_launchpodman collector_tst_launchdocker collector_tst_clirun)
    if(TARGET ${t})
      add_dependencies(${t} fake_cupti collector_harness cnp-collector)
      target_compile_definitions(${t} PRIVATE CNP_COLLECTOR_HARNESS_BUILT) # paths: testpaths::
    endif()
  endforeach()
endif()
# tst_glibcfloor: the built collector's glibc versions, and a probe library that needs newer ones (its check
# must fail there). Not in the sanitizer build, whose collector has no glibc floor.
if(TARGET cnp-collector AND TARGET collector_tst_glibcfloor AND NOT CNP_SANITIZED)
  add_library(glibc_probe SHARED ${CMAKE_CURRENT_LIST_DIR}/fake_cupti/GlibcProbe.cpp)
  set_target_properties(glibc_probe PROPERTIES OUTPUT_NAME cnp-glibc-probe
                        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests/fake)
  add_dependencies(collector_tst_glibcfloor glibc_probe cnp-collector fake_cupti)
  target_compile_definitions(collector_tst_glibcfloor PRIVATE CNP_COLLECTOR_GLIBC_FLOOR)
endif()
if(TARGET collector_tst_glibccompat)
  target_sources(collector_tst_glibccompat PRIVATE $<TARGET_OBJECTS:cnp_collector_glibc_compat>)
endif()
if(TARGET collector_tst_cuptilibrary AND TARGET cnp_cupti_library)
  target_link_libraries(collector_tst_cuptilibrary PRIVATE cnp_cupti_library ${CMAKE_DL_LIBS})
  target_compile_definitions(collector_tst_cuptilibrary PRIVATE CNP_HAVE_CUPTI_LIBRARY=1)
endif()
