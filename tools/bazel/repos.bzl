"""Repositories that rules_go's go_rules_dependencies() would otherwise
declare as GitHub archives (which cannot be downloaded here).

Call after go_dependencies() (deps.bzl, generated from go.mod) and before
go_rules_dependencies(): a repository already declared from go.mod is kept,
the others get the go_repository versions below (fetched through the Go
module proxy). These versions are only used when something in the build
actually needs the repository; with checked-in .pb.go files nothing does.
"""

load("@bazel_gazelle//:deps.bzl", "go_repository")

def _maybe_go_repository(name, **kwargs):
    if not native.existing_rule(name):
        go_repository(name = name, **kwargs)

def sealgate_rules_go_repositories():
    # gazelle v0.26.0 imports golang.org/x/tools/go/vcs, which newer x/tools
    # (as go.mod may pull in) no longer has: gazelle gets its own pinned copy
    # through repo_mapping on @bazel_gazelle (see WORKSPACE). Only
    # `bazel run //:gazelle` builds it.
    _maybe_go_repository(
        name = "org_golang_x_tools_for_gazelle",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/tools",
        sum = "h1:loJ25fNOEhSXfHrpoGj91eCUThwdNX6u24rO1xnNteY=",
        version = "v0.1.11",
    )
    _maybe_go_repository(
        name = "org_golang_x_tools",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/tools",
        sum = "h1:ryxg4U63oaUYk7uOLTF37n43f4qgtGvqV4Ioit1BaEs=",
        version = "v0.52.0",
    )
    _maybe_go_repository(
        name = "org_golang_x_sys",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/sys",
        sum = "h1:bbX/i/6MgT9BVLM9RT1thmxL04yeTAhbEz4SyadbXoo=",
        version = "v0.48.0",
    )
    _maybe_go_repository(
        name = "org_golang_x_xerrors",
        build_file_proto_mode = "disable_global",
        importpath = "golang.org/x/xerrors",
        sum = "h1:noIWHXmPHxILtqtCOPIhSt0ABwskkZKjD3bXGnZGpNY=",
        version = "v0.0.0-20240903120638-7835f813f4da",
    )
    _maybe_go_repository(
        name = "org_golang_google_protobuf",
        build_file_proto_mode = "disable_global",
        importpath = "google.golang.org/protobuf",
        sum = "h1:pJOKDDOyeXErUroCihFAd5LQuwXBSpVnKGrj5o/fwxc=",
        version = "v1.36.12",
    )
    _maybe_go_repository(
        name = "com_github_golang_protobuf",
        build_file_proto_mode = "disable_global",
        importpath = "github.com/golang/protobuf",
        sum = "h1:i7eJL8qZTpSEXOPTxNKhASYpMn+8e5Q6AdndVa1dWek=",
        version = "v1.5.4",
    )
