// Package pycov measures diff coverage of Python code from coverage.py's
// JSON report with per-test contexts: of the changed executable lines of a
// patch's non-test Python files, how many the patch-side run executed, and
// which tests execute which changed lines (the reach map). It is the
// Python sibling of package cover and gives results of the same types
// (cover.Result, cover.Line), so the reach handler can use either.
//
// # Producing the report
//
// The run is made with coverage.py's dynamic context test_function, which
// records, for every line, the test functions that ran it. The settings
// come from a configuration file the executor writes outside the tree and
// names with --rcfile: coverage.py then reads no other file, so the
// repository's .coveragerc, setup.cfg, tox.ini and pyproject.toml, which
// the patch could change, are ignored. (The file must not be called
// ".coveragerc", which --rcfile takes to mean the default search, nor end
// in ".toml".) The file:
//
//	[run]
//	branch = False
//	dynamic_context = test_function
//	source = .
//	parallel = False
//
//	[report]
//	exclude_lines =
//
// `source = .` limits measurement to the tree (without it the report also
// names the files of pytest and the standard library, by absolute paths,
// which Parse refuses unless Limits.Root holds them) and makes coverage.py
// report the files of the tree's packages that no test imported. The empty
// exclude_lines turns off coverage.py's default exclusion of lines marked
// "# pragma: no cover": a patch must not be able to take its own lines out
// of the measurement with a comment. From the tree's root:
//
//	python3 -m coverage run --rcfile=RC --data-file=DATA -m pytest -p no:cacheprovider [ARGS]
//	python3 -m coverage json --rcfile=RC --data-file=DATA --show-contexts -o REPORT
//
// Node ids are relative to pytest's rootdir, which must be the tree's root
// too (pass --rootdir=. when the tree has no pytest configuration file at
// its root).
//
// # Context names
//
// test_function starts a context when a function whose name starts with
// "test" (or is "runTest") is called while no context is active, and ends
// it when that function returns. With coverage.py 6.5 (Debian bookworm)
// and pytest 7.2 the names are the function's module and its name, or for
// a method, the module and the method's qualified name:
//
//	test_ops.test_add            tests/test_ops.py::test_add (tests/ not a package)
//	test_ops.TestK.test_m        tests/test_ops.py::TestK::test_m
//	tests.test_ops.test_add      tests/test_ops.py::test_add (tests/__init__.py exists)
//
// The module is the name the test module was imported as: with pytest's
// default import mode, its name relative to the first directory above it
// that is not a package. There is no "|run" suffix (that is pytest-cov's
// --cov-context=test, whose names are node ids; NodeID reads both).
// Parameter sets share their function's context. Code run outside a test
// function has the context "": imports during collection, fixtures (which
// pytest calls before the test function), and module-level code. A
// function named test... called from a fixture starts a context of its
// own, named after that function, which NodeID maps to no test unless it
// is in a test file.
//
// # What the report says
//
// The report lists per file the executed, missing and excluded lines and,
// with --show-contexts, the contexts of each line. Statements are listed
// by their first lines; contexts are listed by every line the tracer saw,
// which includes continuation lines of multi-line statements: Parse
// attributes them to their statements (see File.Contexts). coverage.py
// lists as executed some lines it counts as no statement: line 0 of a
// module without statements (dropped), excluded lines that ran (dropped),
// and docstring lines: with 6.5, that of a class and a one-line module
// docstring (7.13 stopped listing module docstrings). Those are kept: the
// report does not say which they are (File.Covered, the summary's count,
// is smaller than len(File.Executed) by their number), so a changed
// docstring line can count as a covered executable line.
//
// # What cannot be measured
//
// A changed file the report does not name (a module in a directory that is
// no package and that no test imported, a file outside the tree) is
// unmeasured: Measure gives no ratio. Code run in subprocesses is not
// measured: its lines are missing. Lines run only by fixtures or at import
// are covered but reach no test.
package pycov
