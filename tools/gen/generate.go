package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bufbuild/protocompile"
	"github.com/bufbuild/protocompile/linker"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/descriptorpb"
	"google.golang.org/protobuf/types/pluginpb"
)

// plugins are the code generators of proto/buf.gen.yaml, each run with the
// same option.
func plugins() []string { return []string{"protoc-gen-go", "protoc-gen-go-grpc"} }

// pluginOption is the parameter every plugin gets.
const pluginOption = "paths=source_relative"

// generate compiles every .proto file under protoDir and writes what the
// plugins in bin make of them under out, one request per directory (buf's
// default strategy): the request names the directory's files to generate
// and carries them with their imports, dependencies first.
func generate(protoDir, bin, out string) error {
	sources, err := filesEnding(protoDir, ".proto")
	if err != nil {
		return err
	}
	if len(sources) == 0 {
		return fmt.Errorf("no .proto files under %s", protoDir)
	}
	compiler := protocompile.Compiler{
		Resolver:       &protocompile.SourceResolver{ImportPaths: []string{protoDir}},
		SourceInfoMode: protocompile.SourceInfoStandard,
	}
	compiled, err := compiler.Compile(context.Background(), sources...)
	if err != nil {
		return fmt.Errorf("compiling the .proto files: %w", err)
	}
	byDir := map[string][]string{}
	for _, src := range sources {
		byDir[filepath.Dir(src)] = append(byDir[filepath.Dir(src)], src)
	}
	dirs := make([]string, 0, len(byDir))
	for dir := range byDir {
		dirs = append(dirs, dir)
	}
	slices.Sort(dirs)
	for _, dir := range dirs {
		req := &pluginpb.CodeGeneratorRequest{
			FileToGenerate: byDir[dir],
			Parameter:      proto.String(pluginOption),
			ProtoFile:      withImports(compiled, byDir[dir]),
		}
		for _, plugin := range plugins() {
			if err := runPlugin(filepath.Join(bin, plugin), req, out); err != nil {
				return fmt.Errorf("%s on %s: %w", plugin, dir, err)
			}
		}
	}
	return nil
}

// withImports gives the descriptors of files and everything they import,
// each after its imports, as a plugin request carries them.
func withImports(compiled linker.Files, files []string) []*descriptorpb.FileDescriptorProto {
	var ordered []*descriptorpb.FileDescriptorProto
	seen := map[string]bool{}
	var visit func(fd protoreflect.FileDescriptor)
	visit = func(fd protoreflect.FileDescriptor) {
		if seen[fd.Path()] {
			return
		}
		seen[fd.Path()] = true
		imports := fd.Imports()
		for i := range imports.Len() {
			visit(imports.Get(i).FileDescriptor)
		}
		ordered = append(ordered, protodesc.ToFileDescriptorProto(fd))
	}
	for _, name := range files {
		if fd := compiled.FindFileByPath(name); fd != nil {
			visit(fd)
		}
	}
	return ordered
}

// runPlugin runs one protoc plugin on req and writes the files it returns
// under out.
func runPlugin(path string, req *pluginpb.CodeGeneratorRequest, out string) error {
	in, err := proto.Marshal(req)
	if err != nil {
		return err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%w: %s", err, strings.TrimSpace(stderr.String()))
	}
	var resp pluginpb.CodeGeneratorResponse
	if err := proto.Unmarshal(stdout.Bytes(), &resp); err != nil {
		return fmt.Errorf("reading its response: %w", err)
	}
	if resp.Error != nil {
		return errors.New(resp.GetError())
	}
	for _, f := range resp.GetFile() {
		if f.GetInsertionPoint() != "" {
			return fmt.Errorf("insertion point %q in %s: not supported", f.GetInsertionPoint(), f.GetName())
		}
		name := filepath.Clean(filepath.FromSlash(f.GetName()))
		if !filepath.IsLocal(name) {
			return fmt.Errorf("output path %q leaves the output directory", f.GetName())
		}
		dst := filepath.Join(out, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(dst, []byte(f.GetContent()), 0o644); err != nil {
			return err
		}
	}
	return nil
}
