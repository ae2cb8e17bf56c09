# harness_add_plugin(PACKAGE pkg COMPONENT comp SOURCES … MANIFEST file.json)
#
# Builds a plugin shared object as <plugins-root>/lib/<PACKAGE>/<COMPONENT>.so
# with its manifest beside it as <COMPONENT>.json — the layout the resolver
# expects under <HARNESS_ROOT>/lib. Plugins see only harness/common/plugin.h(.hpp).
function(harness_add_plugin)
  cmake_parse_arguments(P "" "PACKAGE;COMPONENT;MANIFEST" "SOURCES" ${ARGN})
  set(target plugin_${P_PACKAGE}_${P_COMPONENT})
  add_library(${target} MODULE ${P_SOURCES})
  target_link_libraries(${target} PRIVATE harness_plugin_api)
  set_target_properties(${target} PROPERTIES
    PREFIX "" OUTPUT_NAME ${P_COMPONENT}
    LIBRARY_OUTPUT_DIRECTORY ${HARNESS_PLUGIN_OUTPUT_DIR}/${P_PACKAGE}
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden)
  target_link_options(${target} PRIVATE -Wl,--no-undefined)
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND ${CMAKE_COMMAND} -E copy_if_different ${CMAKE_CURRENT_SOURCE_DIR}/${P_MANIFEST}
            ${HARNESS_PLUGIN_OUTPUT_DIR}/${P_PACKAGE}/${P_COMPONENT}.json)
endfunction()
