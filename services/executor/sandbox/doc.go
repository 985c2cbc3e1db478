// Package sandbox runs one command, in practice `go test -json …` or a
// compiled test binary, in a sandbox and reports exactly how it ended.
//
// The sandbox is bubblewrap (bwrap): new network, pid, ipc, uts and cgroup
// namespaces (only loopback inside), a new session, every capability
// dropped, a seccomp filter (below), the system directories (/usr /bin
// /sbin /lib* /etc) read-only, a read-only root, a private size-limited
// tmpfs on /tmp holding an empty HOME (/tmp/home) and TMPDIR (/tmp/tmp), the
// caller's read-only binds (GOROOT, GOMODCACHE), and the work tree plus the
// caller's writable binds (a Go build cache) as the only writable host
// paths. No other host path is visible: not the work tree's parent, not
// /root, not /proc, not /sys. The work tree is bound at its own absolute
// path and is the working directory. Inside, pid 1 is /bin/sh waiting for
// the command, so the command is an ordinary process and its CPU time
// reaches the caller. Resource limits (CPU seconds, address space, open
// files, processes, file size, core=0) are set by prlimit(1), which starts
// bwrap, so the whole tree inherits them. The environment is exactly the
// caller's NAME=VALUE settings, the host variables it names, HOME, TMPDIR
// and PWD; the result records the names, never the values.
//
// Mode None keeps the limits, the environment, a fresh HOME and TMPDIR
// (removed after the run), the timeout and the process-group kill, and
// reports "none". It has no isolation: the command sees the host's files and
// network, and a process that leaves the process group (setsid) survives the
// kill.
//
// Run marks every descriptor of the calling process close-on-exec before it
// starts a command: descriptors the process inherited from its own parent
// would otherwise leak through prlimit and bwrap into the sandbox.
//
// # Forged output through the parent
//
// `go test -json` converts the test binary's output, which reaches cmd/go
// through a pipe. A test that reaches cmd/go's own standard output writes
// lines the converter never saw, such as a pass event for a test that does
// not exist. Under bwrap this was checked three ways (TestGoTest):
//   - /proc/<ppid>/fd/1: `go test` (with GOROOT set) works without /proc,
//     so /proc is not mounted unless Spec.MountProc asks for it. With /proc
//     mounted the open succeeds and the forged line lands in the stream.
//   - pidfd_getfd(pidfd_open(ppid), 1) needs no /proc and, since the test
//     and cmd/go share uid 0 and an empty capability set (and no Yama
//     ptrace_scope here), it succeeded and forged an event; ptrace(ATTACH)
//     on cmd/go succeeded too. So bwrap also loads a seccomp filter that
//     makes ptrace, process_vm_readv, process_vm_writev, pidfd_getfd,
//     keyctl, add_key and request_key fail with EPERM, and denies every
//     syscall of a foreign ABI (i386, x32).
//   - A process in the sandbox cannot mount a procfs: it has no
//     capabilities, and a new user namespace may not mount one where no
//     procfs is visible.
//
// What remains: the test shares cmd/go's uid and pid namespace, so it can
// signal or kill cmd/go (a harness death, never a pass), and it can write
// into cmd/go's temporary directory and any writable bind. A Go build cache
// that is bound writable can be poisoned for later runs that share it; give
// runs of different trust a cache each. /etc is readable as a whole
// (including /etc/shadow, as the sandbox runs as root). Mode None has none
// of these protections.
//
// # Limits, as root
//
// The limits are per process, not per tree: each process may use the CPU
// seconds and the address space. RLIMIT_NPROC never binds uid 0 (the kernel
// exempts the root user whatever its capabilities), so the limits report
// "processes_enforced":"false" when the sandbox runs as root; the pid
// namespace, the timeout and the kill are then the only bound on a fork
// bomb. Under bwrap the capabilities are gone, so the limits cannot be
// raised again; in mode None a root child can raise them. RLIMIT_AS also
// stops the race detector, which reserves terabytes of address space.
//
// A Go program ignores SIGXCPU and SIGXFSZ: it is killed by SIGKILL at the
// hard CPU limit (one second past the soft one), and a write past the file
// size limit fails with "file too large". Past the address-space limit the
// Go runtime prints "fatal error: out of memory" and exits 2; under
// `go test`, go test exits 1 as for a failed test, and the message in the
// stream makes the run OOM.
//
// # How a run ended
//
// Run classifies each run as one Termination. Evidence read from the
// output streams (out-of-memory and file-size markers, a "bwrap: ",
// "prlimit: " or "sandbox-exec: " error at the very start of stderr, a
// failure to load shared libraries), the CPU time used and the kernel's OOM
// kill counter only ever move the classification away from Exited, toward a
// harness death, so a test that prints such text can only make itself look
// worse. A shell reports a command killed by signal N as exit status 128+N,
// so under bwrap an exit status in 129..192 is read as that signal.
package sandbox
