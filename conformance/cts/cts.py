#!/usr/bin/env python3
"""Builds and runs Khronos SYCL 2020 CTS categories against syclone (scripts/cts.sh runs this).

Steps: configure the CTS out of tree with conformance/cts/ as its implementation adapter, build
the chosen categories (every translation unit is tried; an executable is linked from the units
that compiled), run every Catch2 test case in its own process with a time limit, and write a
table: category | TUs compiled/total | cases passed/failed/skipped | first error of each failing
TU (and each failing case).
"""

import argparse
import concurrent.futures
import itertools
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ADAPTER = Path(__file__).resolve().parent
REPO = ADAPTER.parent.parent


def log(msg):
    print(f"cts: {msg}", file=sys.stderr, flush=True)


def run(cmd, **kw):
    return subprocess.run(cmd, **kw)


def all_categories(cts):
    """The core categories (folders of tests/) and the extension categories (folders of
    tests/extension/, enabled with SYCL_CTS_ENABLE_KHR_TESTS and _EXT_ONEAPI_TESTS below)."""
    tests = cts / "tests"
    core = [p.name for p in tests.iterdir()
            if p.is_dir() and p.name not in ("common", "extension") and (p / "CMakeLists.txt").exists()]
    extension = tests / "extension"
    extensions = [p.name for p in extension.iterdir()
                  if p.is_dir() and (p / "CMakeLists.txt").exists()] if extension.is_dir() else []
    return sorted(core + extensions)


def configure(args, categories):
    build = args.build_dir
    build.mkdir(parents=True, exist_ok=True)
    exclude = build / "syclone-exclude-categories.txt"
    wanted = set(categories)
    exclude.write_text("".join(f"{c}\n" for c in all_categories(args.cts) if c not in wanted))
    cmake = [
        "cmake", "-S", str(args.cts), "-B", str(build), "-G", "Ninja",
        f"-DCMAKE_MODULE_PATH={ADAPTER}",
        "-DSYCL_IMPLEMENTATION=syclone",
        f"-DSYCLONE_ROOT={args.syclone}",
        f"-DSYCLONE_TARGETS={args.target}",
        f"-DSYCLONE_CTS_CXX={ADAPTER / 'syclone-cts-cxx'}",
        f"-DSYCL_CTS_EXCLUDE_TEST_CATEGORIES={exclude}",
        f"-DCMAKE_CXX_COMPILER={args.cxx}",
        "-DCMAKE_BUILD_TYPE=",
        f"-DCMAKE_CXX_FLAGS={args.cxxflags}",
        "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON",
        "-DSYCL_CTS_ENABLE_OPENCL_INTEROP_TESTS=OFF",
        "-DSYCL_CTS_ENABLE_DOUBLE_TESTS=ON",
        "-DSYCL_CTS_ENABLE_HALF_TESTS=ON",
        # The extension categories too; those not asked for are excluded like core ones.
        "-DSYCL_CTS_ENABLE_KHR_TESTS=ON",
        "-DSYCL_CTS_ENABLE_EXT_ONEAPI_TESTS=ON",
        "-Wno-dev",
    ]
    cmake += cuda_interop_options(args, categories)
    if shutil_which("ccache"):
        cmake.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
    log(f"configuring {build} for {args.target}: {' '.join(categories)}")
    r = run(cmake, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    (build / "syclone-configure.log").write_text(r.stdout)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-4000:])
        sys.exit(f"cts: configuring the CTS failed (log: {build / 'syclone-configure.log'})")


def cuda_toolkit():
    """The CUDA toolkit whose cuda.h and libcuda stub the CUDA interop tests build against:
    $CUDA_PATH, $CUDA_HOME or /usr/local/cuda; None without one."""
    for root in (os.environ.get("CUDA_PATH"), os.environ.get("CUDA_HOME"), "/usr/local/cuda"):
        if not root or not (Path(root) / "include" / "cuda.h").exists():
            continue
        for stub in ("lib64/stubs/libcuda.so", "lib/stubs/libcuda.so", "lib/x64/stubs/libcuda.so"):
            if (Path(root) / stub).exists():
                return Path(root), Path(root) / stub
    return None


def cuda_interop_options(args, categories):
    """SYCL_CTS_ENABLE_CUDA_INTEROP_TESTS: for every nvptx64 build (syclone then defines
    SYCL_BACKEND_CUDA, and host_task's CUDA case includes cuda.h like the cuda_interop category),
    and for a host build that asks for cuda_interop. The CTS finds the toolkit with CMake's
    FindCUDA, links libcuda (the toolkit's stub here, the driver's library where the tests run)
    and compiles the .cu sources as CMake's CUDA language, which conformance/cts/ defines as
    syclone++ (CMakeDetermineCUDACompiler.cmake)."""
    if args.target != "nvptx64" and "cuda_interop" not in categories:
        return []
    toolkit = cuda_toolkit()
    if toolkit is None:
        if args.target == "nvptx64":
            log("no CUDA toolkit (cuda.h and stubs/libcuda.so under $CUDA_PATH, $CUDA_HOME or "
                "/usr/local/cuda): cuda_interop and host_task's CUDA case will not compile")
        return []
    root, stub = toolkit
    # FindCUDA forgets a CUDA_CUDA_LIBRARY given before its first run and does not look in
    # stubs/: its search path gets the stub's folder instead.
    return ["-DSYCL_CTS_ENABLE_CUDA_INTEROP_TESTS=ON", f"-DCUDA_TOOLKIT_ROOT_DIR={root}",
            f"-DCMAKE_LIBRARY_PATH={stub.parent}"]


def shutil_which(name):
    from shutil import which
    return which(name)


def snapshot(build_tree, prefix, worktree_headers):
    """Copies a syclone build tree's driver and libraries, and the headers of the commit checked
    out (or of the working tree), into an install layout: edits to the working tree during a long
    CTS build do not mix into it, and the table names the commit it measured. syclone++ finds
    <prefix>/include and <prefix>/lib next to <prefix>/bin."""
    import shutil
    if prefix.exists():
        shutil.rmtree(prefix)
    (prefix / "bin").mkdir(parents=True)
    (prefix / "lib").mkdir()
    shutil.copy2(build_tree / "bin" / "syclone++", prefix / "bin")
    for lib in (build_tree / "lib").glob("libsyclone*.so*"):
        shutil.copy2(lib, prefix / "lib", follow_symlinks=False)
    if worktree_headers or not (REPO / ".git").exists():
        shutil.copytree(REPO / "include", prefix / "include")
    else:
        archive = subprocess.run(["git", "-C", str(REPO), "archive", "HEAD", "include"],
                                 stdout=subprocess.PIPE, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(prefix)], input=archive, check=True)
    (prefix / "COMMIT").write_text(git(REPO, "rev-parse", "--short", "HEAD") + "\n")
    log(f"syclone snapshot in {prefix} (headers of {'the working tree' if worktree_headers else 'HEAD'})")
    return prefix


def category_units(build, category):
    """The test sources of a category and their objects, from compile_commands.json."""
    db = json.loads((build / "compile_commands.json").read_text())
    marker = f"/test_{category}_objects.dir/"
    units = []
    for entry in db:
        out = entry.get("output") or ""
        if marker in out or marker in entry.get("command", ""):
            if not out:
                out = shlex.split(entry["command"])[shlex.split(entry["command"]).index("-o") + 1]
            obj = Path(out) if os.path.isabs(out) else Path(entry["directory"]) / out
            units.append((entry["file"], obj))
    return sorted(units)


def build_categories(args, categories):
    build = args.build_dir
    env = os.environ.copy()
    ccache_extra = [str(args.syclone / "lib" / "libsyclone-plugin.so")]
    include = args.syclone / "include" if (args.syclone / "include").exists() else REPO / "include"
    ccache_extra += sorted(str(p) for p in (include / "sycl" / "detail" / "device").glob("*.hpp"))
    env["CCACHE_EXTRAFILES"] = ":".join(p for p in ccache_extra if os.path.exists(p))
    env.setdefault("CCACHE_COMPILERTYPE", "clang")
    env.setdefault("CCACHE_DEPEND", "1")
    targets = [f"test_{c}" for c in categories]
    log(f"building {' '.join(targets)} with -j{args.jobs}")
    t0 = time.time()
    with open(build / "syclone-build.log", "w") as out:
        run(["nice", "-n", "10", "ninja", "-C", str(build), "-k", "0", f"-j{args.jobs}"] + targets,
            stdout=out, stderr=subprocess.STDOUT, env=env)
    log(f"build took {time.time() - t0:.0f} s (log: {build / 'syclone-build.log'})")
    results = {}
    for c in categories:
        units = category_units(build, c)
        failed = []
        for src, obj in units:
            if not obj.exists():
                err = Path(str(obj) + ".err")
                first = first_error(err.read_text(errors="replace")) if err.exists() else "not built"
                failed.append((os.path.relpath(src, args.cts), first))
        exe = build / "bin" / f"test_{c}"
        if failed:
            # ninja links only when every unit compiled: an executable left by an earlier build
            # would be stale, so link one from the units that compiled now.
            exe.unlink(missing_ok=True)
            if len(failed) < len(units):
                link_partial(args, c, units)
        results[c] = {"units": len(units), "compiled": len(units) - len(failed),
                      "failed_units": failed, "exe": str(exe) if exe.exists() else None}
    return results


def first_error(text):
    for line in text.splitlines():
        if re.search(r"\b(fatal )?error\b", line) and ("error:" in line or "Error" in line):
            return shorten(line.strip())
    lines = [l for l in text.splitlines() if l.strip()]
    return shorten(lines[0]) if lines else "failed without a message"


def shorten(line, n=300):
    line = line.replace(str(REPO) + "/", "").replace("|", "\\|")
    line = re.sub(r"/\S*/sycl-cts/", "", line)
    return line if len(line) <= n else line[:n] + " ..."


def link_partial(args, category, units):
    """Links a category's executable from the units that compiled, so their cases run."""
    build = args.build_dir
    r = run(["ninja", "-C", str(build), "-t", "commands", f"test_{category}"],
            stdout=subprocess.PIPE, text=True)
    link = [l for l in r.stdout.splitlines() if f"-o bin/test_{category}" in l]
    if not link:
        return
    missing = {str(obj) for _, obj in units if not obj.exists()}
    # ": && <launcher> ... -o bin/test_<category> ... && :"
    step = [p for p in link[-1].split("&&") if f"-o bin/test_{category}" in p][0]
    words = shlex.split(step)
    kept = [w for w in words if str((build / w).resolve()) not in missing and w not in missing]
    log(f"linking test_{category} from {len(units) - len(missing)} of {len(units)} units")
    r = run(kept, cwd=build, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        (build / f"syclone-link-{category}.log").write_text(r.stdout)
        log(f"linking test_{category} failed: {first_error(r.stdout)}")


def list_cases(exe, env):
    r = run([exe, "--list-tests", "--verbosity", "quiet"], stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, text=True, env=env, timeout=120)
    return [l for l in r.stdout.splitlines() if l.strip()]


def escape_case(name):
    # Catch2 test specs: a backslash escapes the characters that would start a tag, a wildcard,
    # a quoted name, a negation or separate specs.
    out = re.sub(r'([\\\[\],*"~])', r"\\\1", name)
    return out


_xml_ids = itertools.count()


def run_case(exe, name, count, timeout, env, workdir):
    """Runs the test cases called `name` (`count` of them: the CTS registers some names in several
    TUs, and Catch2 runs every case a name matches) in one process; one result per case."""
    xml_out = workdir / f"case-{os.getpid()}-{next(_xml_ids)}.xml"  # unique: cases run in parallel
    cmd = [exe, escape_case(name), "-r", "xml", "-o", str(xml_out)] + env.get_extra()
    t0 = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         env=env.vars, start_new_session=True, text=True, errors="replace")
    try:
        out, _ = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        xml_out.unlink(missing_ok=True)
        return [{"name": name, "status": "failed", "why": f"timed out after {timeout} s",
                 "seconds": timeout}] * count
    secs = time.time() - t0
    results = parse_xml(xml_out, p.returncode, out)
    xml_out.unlink(missing_ok=True)
    if len(results) < count:  # a report that lacks some of the cases of that name
        results += [("failed", "no result in the report")] * (count - len(results))
    return [{"name": name, "status": status, "why": why, "seconds": round(secs, 2)}
            for status, why in results[:count]]


def parse_xml(path, rc, output):
    """(status, why) of each test case in a Catch2 XML report."""
    try:
        root = ET.parse(path).getroot()
    except Exception:
        if rc < 0:
            return [("failed", f"crashed ({signal.Signals(-rc).name})")]
        tail = [l for l in output.splitlines() if l.strip()][-1:] or ["no output"]
        return [("failed", shorten(f"exit {rc} without a report: {tail[0]}"))]
    cases = root.findall(".//TestCase")
    if not cases:
        return [("failed", "test case not found")]
    return [case_result(case, rc) for case in cases]


def case_result(case, rc):
    res = case.find("OverallResult")
    success = res is not None and res.get("success") == "true"
    skips = int(res.get("skips", "0")) if res is not None else 0
    if success and skips:
        return "skipped", first_message(case, "Skip")
    if success:
        return "passed", ""
    return "failed", first_failure(case) or f"exit {rc}"


def first_message(case, tag):
    for e in case.iter(tag):
        return shorten(" ".join((e.text or "").split()))
    return ""


def first_failure(case):
    for e in case.iter():
        if e.tag == "Expression" and e.get("success") == "false":
            orig = e.find("Original")
            exp = e.find("Expanded")
            text = (orig.text or "").strip() if orig is not None else ""
            if exp is not None and exp.text and exp.text.strip() != text:
                text += f" with expansion: {exp.text.strip()}"
            return shorten(f"{Path(e.get('filename', '')).name}:{e.get('line')}: " + " ".join(text.split()))
        if e.tag in ("Exception", "FatalErrorCondition", "Failure"):
            return shorten(f"{e.tag}: " + " ".join((e.text or "").split()))
    return ""


def stage(args, results):
    """Copies what a GPU machine without LLVM needs to run the built categories into one folder:
    the stripped executables, syclone's libraries (and Boost.Context, which the runtime links),
    and what the build learned about the TUs, for `--no-build --build-dir <folder>` there."""
    import shutil
    out = args.stage
    if out.exists():
        shutil.rmtree(out)
    (out / "bin").mkdir(parents=True)
    (out / "lib").mkdir()
    for lib in (args.syclone / "lib").glob("libsyclone*.so*"):
        if "plugin" not in lib.name:
            shutil.copy2(lib, out / "lib", follow_symlinks=False)
    ldd = run(["ldd", str(args.syclone / "lib" / "libsyclone.so")], stdout=subprocess.PIPE, text=True).stdout
    for line in ldd.splitlines():
        m = re.search(r"=> (\S*libboost\S*)", line)
        if m:
            shutil.copy2(m.group(1), out / "lib")
    units = {}
    for c, r in results.items():
        if r["exe"]:
            shutil.copy2(r["exe"], out / "bin")
        units[c] = {k: r[k] for k in ("units", "compiled", "failed_units")}
    (out / "syclone-units.json").write_text(json.dumps(units, indent=1))
    run(["sh", "-c", f"strip --strip-unneeded {out}/bin/* {out}/lib/*.so* 2>/dev/null"])
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    log(f"staged {len(units)} categories in {out} ({size / 2**20:.1f} MiB)")


class CaseEnv:
    def __init__(self, args):
        self.vars = os.environ.copy()
        if (args.build_dir / "lib").is_dir():  # a staged folder (--stage)
            self.vars["LD_LIBRARY_PATH"] = ":".join(
                p for p in [str(args.build_dir / "lib"), self.vars.get("LD_LIBRARY_PATH", "")] if p)
        self.extra = []
        if args.device:
            self.extra = ["--device", args.device]
        if args.target == "host":
            self.vars.setdefault("SYCLONE_DEVICE_SELECTOR", "host:*")
        else:
            self.vars.setdefault("SYCLONE_DEVICE_SELECTOR", "cuda:gpu")

    def get_extra(self):
        return self.extra


def run_category(args, category, info):
    exe = info["exe"]
    if not exe:
        info.update(passed=0, failed=0, skipped=0, cases=[])
        return
    env = CaseEnv(args)
    try:
        names = list_cases(exe, env.vars)
    except Exception as e:
        info.update(passed=0, failed=1, skipped=0,
                    cases=[{"name": "(listing the cases)", "status": "failed", "why": str(e)}])
        return
    workdir = args.build_dir / "syclone-runs"
    workdir.mkdir(exist_ok=True)
    counts = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    log(f"{category}: running {len(names)} cases, {args.case_jobs} at a time")
    with concurrent.futures.ThreadPoolExecutor(args.case_jobs) as pool:
        runs = pool.map(lambda n: run_case(exe, n, counts[n], args.timeout, env, workdir), counts)
        cases = [c for run in runs for c in run]
    info["cases"] = cases
    for s in ("passed", "failed", "skipped"):
        info[s] = sum(1 for c in cases if c["status"] == s)


def table(args, results):
    stamp = args.syclone / "COMMIT"
    syclone_commit = stamp.read_text().strip() if stamp.exists() else git(REPO, "rev-parse", "--short", "HEAD")
    dirty = " (with uncommitted changes)" if getattr(args, "worktree_headers", False) and git(
        REPO, "status", "--porcelain", "--", "include") else ""
    cts_commit = git(args.cts, "rev-parse", "HEAD") or read_cts_commit(args.cts)
    lines = [
        f"CTS {cts_commit or 'unknown commit'}, syclone {syclone_commit}{dirty}, target {args.target}, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        "",
        "| category | TUs compiled/total | cases passed/failed/skipped | first errors |",
        "| --- | --- | --- | --- |",
    ]
    tot = [0, 0, 0, 0, 0]
    for c, r in results.items():
        notes = [f"`{Path(u).name}`: {e}" for u, e in r["failed_units"]]
        notes += [f"case \"{x['name']}\": {x['why']}" for x in r.get("cases", []) if x["status"] == "failed"]
        lines.append(f"| {c} | {r['compiled']}/{r['units']} | {r.get('passed', 0)}/{r.get('failed', 0)}/"
                     f"{r.get('skipped', 0)} | {'<br>'.join(notes)} |")
        tot[0] += r["compiled"]
        tot[1] += r["units"]
        tot[2] += r.get("passed", 0)
        tot[3] += r.get("failed", 0)
        tot[4] += r.get("skipped", 0)
    lines.append(f"| **total** | {tot[0]}/{tot[1]} | {tot[2]}/{tot[3]}/{tot[4]} | |")
    return "\n".join(lines) + "\n"


def read_cts_commit(cts):
    src = cts.parent / "sycl-cts.SOURCE.md"
    if src.exists():
        m = re.search(r"commit ([0-9a-f]{40})", src.read_text())
        if m:
            return m.group(1)
    return ""


def git(where, *cmd):
    r = run(["git", "-C", str(where)] + list(cmd), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return r.stdout.strip() if r.returncode == 0 else ""


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("categories", nargs="*", help="CTS categories (folders of tests/); default: all")
    ap.add_argument("--cts", type=Path, help="CTS checkout (default: $SYCLONE_CTS_DIR, else ../shared/sycl-cts)")
    ap.add_argument("--target", choices=["host", "nvptx64"], default="host")
    ap.add_argument("--syclone", type=Path, help="syclone build tree or install prefix (default: $SYCLONE_ROOT, else build)")
    ap.add_argument("--build-dir", type=Path, help="CTS build folder (default: <syclone>/cts-<target>)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel compiles (default 2)")
    ap.add_argument("--case-jobs", type=int, default=1, help="test cases run at once (default 1)")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per test case (default 120)")
    ap.add_argument("--cxx", default="clang++-22", help="C++ compiler of the CTS's non-SYCL code")
    ap.add_argument("--cxxflags", default="-O1")
    ap.add_argument("--device", help="the CTS's --device regular expression")
    ap.add_argument("--no-build", action="store_true", help="run what is built")
    ap.add_argument("--worktree-headers", action="store_true",
                    help="use the working tree's headers (default: those of the commit checked out)")
    ap.add_argument("--reuse-snapshot", action="store_true",
                    help="build against the syclone copied into the build folder by an earlier "
                         "run (several runs of category groups, one syclone)")
    ap.add_argument("--no-run", action="store_true", help="build only (e.g. nvptx64 executables for a GPU machine)")
    ap.add_argument("--out", type=Path, help="write the table here (also printed); a .json next to it")
    ap.add_argument("--stage", type=Path,
                    help="copy the executables and syclone's libraries here, for a GPU machine "
                         "without LLVM (run there with --no-build --build-dir <this folder>)")
    ap.add_argument("--smoke", action="store_true",
                    help="the CI smoke: the categories of conformance/cts/smoke.txt on the host; "
                         "succeeds without running when there is no CTS checkout")
    args = ap.parse_args()
    if args.smoke:
        args.categories = args.categories or [
            l.split("#")[0].strip() for l in (ADAPTER / "smoke.txt").read_text().splitlines()
            if l.split("#")[0].strip()]

    if args.cts is None:
        env = os.environ.get("SYCLONE_CTS_DIR")
        args.cts = Path(env) if env else REPO.parent / "shared" / "sycl-cts"
    args.cts = args.cts.resolve()
    if args.no_build and not (args.cts / "tests").exists():
        pass  # running staged executables: the checkout is not needed
    elif not (args.cts / "tests" / "common" / "common.h").exists():
        if args.smoke:
            log(f"no CTS checkout at {args.cts}: smoke skipped (set SYCLONE_CTS_DIR)")
            return 0
        sys.exit(f"cts: {args.cts} is not a SYCL-CTS checkout; pass --cts DIR or set SYCLONE_CTS_DIR")
    if args.syclone is None:
        args.syclone = Path(os.environ.get("SYCLONE_ROOT", REPO / "build"))
    args.syclone = args.syclone.resolve()
    if not args.no_build and not (args.syclone / "bin" / "syclone++").exists():
        sys.exit(f"cts: no bin/syclone++ in {args.syclone}; build syclone (scripts/setup.sh) or pass --syclone")
    if args.build_dir is None:
        args.build_dir = args.syclone / f"cts-{args.target}"
    args.build_dir = args.build_dir.resolve()
    if not args.no_build and not (args.syclone / "include" / "sycl" / "sycl.hpp").exists():
        if args.reuse_snapshot and (args.build_dir / "syclone" / "bin" / "syclone++").exists():
            args.syclone = args.build_dir / "syclone"
        else:
            args.syclone = snapshot(args.syclone, args.build_dir / "syclone", args.worktree_headers)
    if args.no_build and not (args.cts / "tests").exists():
        categories = args.categories
        unknown = []
    else:
        categories = args.categories or all_categories(args.cts)
        unknown = [c for c in categories if c not in all_categories(args.cts)]
    if unknown:
        sys.exit(f"cts: unknown categories {' '.join(unknown)}; see {args.cts / 'tests'}")

    if not args.no_build:
        configure(args, categories)
        results = build_categories(args, categories)
    else:
        results = {}
        staged = args.build_dir / "syclone-units.json"
        known = json.loads(staged.read_text()) if staged.exists() else {}
        for c in categories:
            exe = args.build_dir / "bin" / f"test_{c}"
            if c in known:
                results[c] = dict(known[c])
            else:
                units = category_units(args.build_dir, c)
                failed = [(os.path.relpath(s, args.cts), "not built") for s, o in units if not o.exists()]
                results[c] = {"units": len(units), "compiled": len(units) - len(failed),
                              "failed_units": failed}
            results[c]["exe"] = str(exe) if exe.exists() else None
    if args.stage:
        stage(args, results)
    if not args.no_run:
        for c in categories:
            run_category(args, c, results[c])
    text = table(args, results)
    print(text)
    if args.out:
        args.out.write_text(text)
        args.out.with_suffix(".json").write_text(json.dumps(results, indent=1))
    failed = any(r["compiled"] < r["units"] or r.get("failed", 0) for r in results.values())
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
