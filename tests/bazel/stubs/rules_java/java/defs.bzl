# Offline stand-in for @rules_java (fetched from GitHub otherwise): the
# native rules @bazel_tools//tools/jdk loads. No Java is built.
java_binary = native.java_binary
java_import = native.java_import
java_library = native.java_library
java_plugin = native.java_plugin
java_runtime = native.java_runtime
java_test = native.java_test
java_toolchain = native.java_toolchain
