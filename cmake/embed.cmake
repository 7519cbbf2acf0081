# m2m_embed(OUT_VAR SOURCE SYMBOL [NAMESPACE]): a generated .cpp holding the text of SOURCE (a path
# from the top of the repository) as `const char* const SYMBOL`, so the binary needs no file beside
# it. Re-runs the configure step when SOURCE changes.
function(m2m_embed out_var source symbol)
  set(EMBED_SOURCE ${source})
  set(EMBED_NAMESPACE m2m::presets)
  if(ARGC GREATER 3)
    set(EMBED_NAMESPACE ${ARGV3})
  endif()
  set(EMBED_SYMBOL ${symbol})
  file(READ ${CMAKE_SOURCE_DIR}/${source} EMBED_TEXT)
  set(out ${CMAKE_BINARY_DIR}/generated/${symbol}.cpp)
  configure_file(${CMAKE_SOURCE_DIR}/cmake/embed.cpp.in ${out} @ONLY)
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/${source})
  set(${out_var} ${out} PARENT_SCOPE)
endfunction()
