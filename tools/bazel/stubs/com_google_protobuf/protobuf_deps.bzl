"""Stub of @com_google_protobuf//:protobuf_deps.bzl: nothing to fetch."""

def protobuf_deps():
    pass
