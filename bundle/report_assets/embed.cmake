# Writes a file as a C++ raw string literal: cmake -DIN=f -DOUT=f.inc -DNAME=kX -P embed.cmake.
# The page script and style must not be able to end their own element early.
file(READ "${IN}" text)
string(TOLOWER "${text}" lower)
if(lower MATCHES "</script" OR lower MATCHES "</style" OR lower MATCHES "<!--")
  message(FATAL_ERROR "${IN}: contains </script, </style or <!--, which would end its element in the page")
endif()
if(text MATCHES "\\)fbc_asset\"")
  message(FATAL_ERROR "${IN}: contains the raw-string delimiter )fbc_asset\"")
endif()
file(WRITE "${OUT}.tmp" "// Generated from ${IN} by embed.cmake.\ninline constexpr char ${NAME}[] = R\"fbc_asset(${text})fbc_asset\";\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
