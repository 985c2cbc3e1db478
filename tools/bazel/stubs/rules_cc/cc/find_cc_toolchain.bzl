"""Stub of @rules_cc//cc:find_cc_toolchain.bzl: forwards to @bazel_tools."""

load("@bazel_tools//tools/cpp:toolchain_utils.bzl", _find_cpp_toolchain = "find_cpp_toolchain")

find_cc_toolchain = _find_cpp_toolchain
find_cpp_toolchain = _find_cpp_toolchain
