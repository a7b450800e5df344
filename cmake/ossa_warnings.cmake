# Warning flags for every ossa target: ossa_warnings(<target>).
function(ossa_warnings target)
  if(CMAKE_C_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes
        -Wconversion -Wno-sign-conversion -Wpointer-arith -Wvla -Wundef>
      $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra>)
    if(OSSA_WERROR)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
