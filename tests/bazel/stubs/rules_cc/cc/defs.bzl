# Offline stand-in for @rules_cc (Debian's bazel-bootstrap fetches it from
# GitHub; its bazel-rules-cc is for a newer Bazel): the native rules, which
# is all @bazel_tools asks of it for an sh_test. No C++ is built.
cc_binary = native.cc_binary
cc_library = native.cc_library
cc_test = native.cc_test
cc_proto_library = native.cc_proto_library
cc_toolchain = native.cc_toolchain
cc_toolchain_suite = native.cc_toolchain_suite
objc_library = native.objc_library
