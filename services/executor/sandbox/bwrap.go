//go:build linux

package sandbox

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Paths inside the bwrap sandbox. /tmp is a private tmpfs.
const (
	bwrapHome = "/tmp/home"
	bwrapTmp  = "/tmp/tmp"
	// seccompFD is the descriptor bwrap reads the filter from: the first
	// of exec.Cmd.ExtraFiles; the files of the sandbox's own /etc follow
	// (see etcFiles).
	seccompFD = 3
	// sandboxUID and sandboxGID are the unprivileged user and group the
	// command runs as inside its user namespace; outside, it is still the
	// caller.
	sandboxUID = 1000
	sandboxGID = 1000
	// The user, host and home a run Elsewhere sees (see Spec.Elsewhere).
	elsewhereUID  = 1001
	elsewhereGID  = 1001
	elsewhereUser = "dev"
	elsewhereHost = "devbox"
	elsewhereHome = "/home/dev"
	// elsewhereZone is a time zone half an hour off any whole hour from
	// UTC, which the host's (a CI machine's, usually UTC) is not.
	elsewhereZone = "Asia/Kolkata"
	// execName is $0 of the shell that runs the command as pid 1's child;
	// it prefixes the shell's message when the command cannot be executed.
	execName = "sandbox-exec"
)

// wrapper returns the argv that runs argv under a shell as pid 1. bwrap's
// own pid 1 exits without being waited for, which loses the CPU time of
// the whole tree; the shell waits for the command, so the time reaches
// Run, and the command keeps the signal behaviour of a process that is not
// pid 1. The shell exits 128+N when the command is killed by signal N.
func wrapper(argv []string) []string {
	return append([]string{"/bin/sh", "-c", `"$@"; exit $?`, execName}, argv...)
}

// systemDirs returns the host directories bound read-only (or recreated as
// the same symlink) when they exist. /etc is not one: the sandbox gets an
// /etc of its own (see etcFiles and etcShared).
func systemDirs() []string {
	return []string{"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}
}

// etcFiles returns the files of the sandbox's /etc that are written for
// it, in the order of the descriptors that follow seccompFD: the user and
// group it runs as, loopback-only name resolution. Nothing of the host's
// accounts, password hashes or names reaches the command. Elsewhere they
// are a developer machine's: its user, its host name, a local resolver.
func etcFiles(elsewhere bool) []struct{ path, data string } {
	user, home := "sandbox", bwrapHome
	uid, gid := strconv.Itoa(sandboxUID), strconv.Itoa(sandboxGID)
	hosts, resolv := "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n", ""
	if elsewhere {
		user, home = elsewhereUser, elsewhereHome
		uid, gid = strconv.Itoa(elsewhereUID), strconv.Itoa(elsewhereGID)
		hosts = "127.0.0.1\tlocalhost\n127.0.1.1\t" + elsewhereHost + "\n::1\tlocalhost ip6-localhost ip6-loopback\n"
		resolv = "nameserver 127.0.0.53\noptions edns0 trust-ad\nsearch lan\n"
	}
	files := []struct{ path, data string }{
		{"/etc/passwd", "root:x:0:0:root:/root:/bin/sh\n" + user + ":x:" + uid + ":" + gid + "::" + home + ":/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"},
		{"/etc/group", "root:x:0:\n" + user + ":x:" + gid + ":\nnogroup:x:65534:\n"},
		{"/etc/hosts", hosts},
		{"/etc/nsswitch.conf", "passwd: files\ngroup: files\nhosts: files\n"},
		{"/etc/resolv.conf", resolv},
	}
	if elsewhere {
		files = append(files, struct{ path, data string }{"/etc/hostname", elsewhereHost + "\n"},
			struct{ path, data string }{"/etc/mtab", "/dev/sda1 / ext4 rw,relatime 0 0\ntmpfs /tmp tmpfs rw,nosuid,nodev 0 0\n"})
	}
	return files
}

// etcShared returns the host /etc entries shown read-only (when they
// exist) because programs need them and they hold nothing secret: CA
// certificates, the dynamic linker's cache, Debian's alternatives, the
// time zone, service and protocol names, the interpreters' site
// configuration.
func etcShared() []string {
	return []string{"ssl", "ca-certificates", "ca-certificates.conf", "pki", "ld.so.cache", "ld.so.conf", "ld.so.conf.d",
		"alternatives", "localtime", "timezone", "services", "protocols", "mime.types", "os-release", "debian_version",
		"python3", "python3.9", "python3.10", "python3.11", "python3.12", "python3.13", "gai.conf"}
}

// blockedSyscalls names the syscalls the seccomp filter denies, as listed in
// Info.Limits["seccomp"], with their numbers.
func blockedSyscalls() ([]string, []uint32) {
	return []string{"ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd", "keyctl", "add_key", "request_key"},
		[]uint32{unix.SYS_PTRACE, unix.SYS_PROCESS_VM_READV, unix.SYS_PROCESS_VM_WRITEV, unix.SYS_PIDFD_GETFD, unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY}
}

// seccompFilter returns the classic BPF program bwrap --seccomp loads: the
// blocked syscalls, every syscall of another ABI (i386, x32), fail with
// EPERM; everything else is allowed.
func seccompFilter() ([]byte, error) {
	var arch uint32
	switch runtime.GOARCH {
	case "amd64":
		arch = unix.AUDIT_ARCH_X86_64
	case "arm64":
		arch = unix.AUDIT_ARCH_AARCH64
	case "riscv64":
		arch = unix.AUDIT_ARCH_RISCV64
	case "ppc64le":
		arch = unix.AUDIT_ARCH_PPC64LE
	case "s390x":
		arch = unix.AUDIT_ARCH_S390X
	default:
		return nil, fmt.Errorf("no seccomp filter for GOARCH %s", runtime.GOARCH)
	}
	const (
		offNr   = 0 // offsetof(struct seccomp_data, nr)
		offArch = 4 // offsetof(struct seccomp_data, arch)
		x32Bit  = 0x40000000
	)
	deny := uint32(unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM))
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jeq := func(k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: jt, Jf: jf, K: k}
	}
	prog := []unix.SockFilter{
		stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offArch),
		jeq(arch, 1, 0),
		stmt(unix.BPF_RET|unix.BPF_K, deny),
		stmt(unix.BPF_LD|unix.BPF_W|unix.BPF_ABS, offNr),
	}
	if runtime.GOARCH == "amd64" {
		prog = append(prog,
			unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, Jt: 0, Jf: 1, K: x32Bit},
			stmt(unix.BPF_RET|unix.BPF_K, deny))
	}
	_, nrs := blockedSyscalls()
	for _, nr := range nrs {
		prog = append(prog, jeq(nr, 0, 1), stmt(unix.BPF_RET|unix.BPF_K, deny))
	}
	prog = append(prog, stmt(unix.BPF_RET|unix.BPF_K, unix.SECCOMP_RET_ALLOW))

	out := make([]byte, 0, 8*len(prog))
	for _, f := range prog {
		out = binary.NativeEndian.AppendUint16(out, f.Code)
		out = append(out, f.Jt, f.Jf)
		out = binary.NativeEndian.AppendUint32(out, f.K)
	}
	return out, nil
}

// bwrapArgs returns bwrap's options for s with limits l, up to but not
// including "--"; open are openDirArgs' options for s.
func bwrapArgs(s *Spec, l Limits, open []string) []string {
	uid, gid := sandboxUID, sandboxGID
	if s.Elsewhere {
		uid, gid = elsewhereUID, elsewhereGID
	}
	a := []string{
		"--unshare-user", "--uid", strconv.Itoa(uid), "--gid", strconv.Itoa(gid),
		"--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
		"--die-with-parent", "--new-session", "--as-pid-1", "--cap-drop", "ALL",
	}
	// Elsewhere names its host in /etc/hostname and /etc/hosts only:
	// bwrap's --hostname fails where the sandbox itself runs in a
	// container (podman: "Can't set hostname"), and what uname says is a
	// probe of its own (os.Hostname).
	bindHost := func(d string) {
		fi, err := os.Lstat(d)
		if err != nil {
			return
		}
		if fi.Mode()&os.ModeSymlink != 0 {
			if target, err := os.Readlink(d); err == nil {
				a = append(a, "--symlink", target, d)
			}
			return
		}
		a = append(a, "--ro-bind", d, d)
	}
	for _, d := range systemDirs() {
		bindHost(d)
	}
	a = append(a, "--dir", "/etc")
	for _, e := range etcShared() {
		bindHost("/etc/" + e)
	}
	for i, f := range etcFiles(s.Elsewhere) {
		a = append(a, "--ro-bind-data", strconv.Itoa(seccompFD+1+i), f.path)
	}
	a = append(a, "--dev", "/dev", "--size", strconv.FormatUint(l.TmpBytes, 10), "--tmpfs", "/tmp")
	if s.Elsewhere {
		// The home lies where a user's does, on a tmpfs of its own; no
		// TMPDIR: the private /tmp is the temporary directory.
		a = append(a, "--size", strconv.FormatUint(l.TmpBytes, 10), "--tmpfs", "/home", "--dir", elsewhereHome,
			"--dir", "/var/tmp", "--dir", "/run", "--dir", "/root")
	} else {
		a = append(a, "--dir", bwrapHome, "--dir", bwrapTmp)
	}
	if s.MountProc {
		a = append(a, "--proc", "/proc")
	}
	type bind struct {
		source, target string
		writable       bool
	}
	binds := []bind{{s.Dir, s.root(), !s.ReadOnlyDir}}
	for _, p := range s.ReadOnly {
		binds = append(binds, bind{p, p, false})
	}
	for _, p := range s.Writable {
		binds = append(binds, bind{p, p, true})
	}
	for _, m := range s.Mounts {
		binds = append(binds, bind{m.Source, m.Target, m.Writable})
	}
	// A parent sorts before its children, so it is mounted first.
	slices.SortFunc(binds, func(x, y bind) int { return strings.Compare(x.target, y.target) })
	for _, b := range binds {
		if b.writable {
			a = append(a, "--bind", b.source, b.target)
		} else {
			a = append(a, "--ro-bind", b.source, b.target)
		}
	}
	a = append(a, open...)
	return append(a, "--remount-ro", "/", "--chdir", s.root(), "--seccomp", strconv.Itoa(seccompFD))
}

// openDirArgs returns the options that make s.OpenDir take new entries
// (see Spec.OpenDir): a tmpfs at its place in the sandbox, each of the
// tree's entries there bound read-only over it, and its testdata
// directory, where Go tests keep their fixtures, opened the same way. It
// returns nil — the directory stays as read-only as the rest of the tree
// — unless the directory is the tree's own all the way down (no symlink
// on the way, which would bind whatever host path it names), holds only
// files and directories (a symlink in it would be a tmpfs entry the
// command could re-point) and not too many of them, and no other mount
// lies in it or holds it.
func openDirArgs(s *Spec, l Limits) []string {
	if !s.ReadOnlyDir || s.OpenDir == "" {
		return nil
	}
	rel := filepath.Clean(s.OpenDir)
	if filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, "../") {
		return nil
	}
	host := s.Dir
	if rel != "." {
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			host = filepath.Join(host, part)
			if fi, err := os.Lstat(host); err != nil || !fi.IsDir() {
				return nil
			}
		}
	}
	in := filepath.Join(s.root(), rel)
	others := append(slices.Clone(s.ReadOnly), s.Writable...)
	for _, m := range s.Mounts {
		others = append(others, m.Target)
	}
	for _, t := range others {
		if within(t, in) || within(in, t) {
			return nil
		}
	}
	a, ok := openArgs(l, host, in, true)
	if !ok {
		return nil
	}
	return a
}

// maxOpenEntries bounds the entries of one opened directory: each is a
// mount of its own.
const maxOpenEntries = 1024

// openArgs opens the host directory host at in (see openDirArgs); with
// sub, its testdata directory is opened too when it can be, and bound
// read-only whole when not.
func openArgs(l Limits, host, in string, sub bool) ([]string, bool) {
	entries, err := os.ReadDir(host)
	if err != nil || len(entries) > maxOpenEntries {
		return nil, false
	}
	a := []string{"--size", strconv.FormatUint(l.TmpBytes, 10), "--tmpfs", in}
	for _, e := range entries {
		t := e.Type()
		if !t.IsDir() && !t.IsRegular() {
			return nil, false
		}
		src, dst := filepath.Join(host, e.Name()), filepath.Join(in, e.Name())
		if sub && t.IsDir() && e.Name() == "testdata" {
			if more, ok := openArgs(l, src, dst, false); ok {
				a = append(a, more...)
				continue
			}
		}
		a = append(a, "--ro-bind", src, dst)
	}
	return a, true
}

// visibleRoots returns the host paths a bwrap sandbox for s shows.
func visibleRoots(s *Spec) []string {
	var roots []string
	for _, d := range systemDirs() {
		if _, err := os.Lstat(d); err == nil {
			roots = append(roots, d)
		}
	}
	roots = append(roots, s.Dir)
	roots = append(roots, s.ReadOnly...)
	for _, m := range s.Mounts {
		roots = append(roots, m.Source)
	}
	return append(roots, s.Writable...)
}

// within reports whether path is root or inside it.
func within(path, root string) bool {
	return path == root || root == "/" || strings.HasPrefix(path, root+"/")
}
