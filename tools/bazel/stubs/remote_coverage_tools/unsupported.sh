#!/bin/sh
echo "bazel coverage is not supported in this workspace (remote_coverage_tools is a stub); use go test -cover" >&2
exit 1
