"""The kernel profiler's parts that need no perf: symbol names, the perf map, the IR rewrite."""

import llvmlite.binding as ll
import numpy as np
import pytest
from numba import njit

from sim.core.profiling import (
    noinline_own_functions,
    object_code,
    perf_map_lines,
    readable_name,
    source_lines,
    write_objects,
)


def test_mangled_names_read_as_module_and_function():
    assert readable_name("_ZN10strategies4deal11choose_playB4v110B40c8tJTIeFIjxE5ArrayIiLi1E") == (
        "strategies.deal.choose_play"
    )
    assert readable_name("cfunc._ZN3sim4core3rng7shuffleB3v55B36c8tJTIeE.batch") == "sim.core.rng.shuffle"
    assert readable_name("_ZN13_3cdynamic_3e36__numba_parfor_gufunc_0x7f03aed0f190B4v218") == (
        "the batch loop (numba's parallel gufunc)"
    )
    assert readable_name("NRT_decref") == "NRT_decref"


def test_the_perf_map_places_each_compiled_function_where_it_runs():
    # Compiled here without the cache, so its library keeps the object code the map is read from.
    @njit
    def helper(a, i):
        return a[i] * 3

    @njit
    def total(a):
        s = 0
        for i in range(a.size):
            s += helper(a, i)
        return s

    assert total(np.arange(5)) == 30
    lib = total.overloads[total.signatures[0]].library
    rows = perf_map_lines(object_code([lib]))
    by_name = {name: (address, size) for address, size, name in rows}
    name = total.overloads[total.signatures[0]].fndesc.llvm_func_name
    assert by_name[name][0] == lib.get_pointer_to_function(name) and by_name[name][1] > 0
    assert by_name["cfunc." + name][0] == lib.get_pointer_to_function("cfunc." + name)
    starts = [address for address, _, _ in rows]
    assert starts == sorted(starts)


def test_samples_are_counted_by_the_source_line_they_ran(tmp_path):
    # With debug information (as --lines compiles), the function's first instruction belongs to
    # a line of its body; an address outside every object is not counted.
    @njit(debug=True)
    def triple_sum(a):
        s = 0
        for i in range(a.size):
            s += a[i] * 3
        return s

    assert triple_sum(np.arange(4)) == 18
    cres = triple_sum.overloads[triple_sum.signatures[0]]
    code = object_code([cres.library])
    write_objects(code, str(tmp_path))
    start = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
    first_line = triple_sum.py_func.__code__.co_firstlineno
    counts = source_lines([start, start, 1], str(tmp_path))
    [(place, n)] = counts.items()
    file, line = place.split(":")
    assert file == "tests/test_profiling.py" and first_line < int(line) <= first_line + 6 and n == 2, counts


def test_only_the_projects_functions_are_kept_out_of_line():
    ir = """
define i64 @"_ZN3sim4deal6kernel4stepB2v1E"(i64 %x) local_unnamed_addr {
  %y = add i64 %x, 1
  ret i64 %y
}
define i64 @"_ZN10strategies4deal4pickB2v1E"(i64 %x) alwaysinline {
  ret i64 %x
}
define i64 @"_ZN5numpy4sortB2v1E"(i64 %x) {
  ret i64 %x
}
define i64 @"_ZN3sim4core3rng4nextB2v1E"(i64 %x) {
  ret i64 %x
}
define i64 @"_ZN3sim4core3rng4skipB2v1E"(i64 %x) #0 !note !0 {
  ret i64 %x
}
attributes #0 = { nounwind }
!0 = !{}
"""
    out = noinline_own_functions(ir)
    lines = [line for line in out.splitlines() if line.startswith("define")]
    assert lines[0].endswith("local_unnamed_addr noinline {")
    assert lines[1].endswith("alwaysinline {") and "noinline" not in lines[1]
    assert "noinline" not in lines[2]
    assert lines[3].endswith("(i64 %x) noinline {")
    assert lines[4].endswith("(i64 %x) #0 noinline !note !0 {")  # metadata (a debug build's !dbg) last
    ll.parse_assembly(out).verify()  # still valid IR


@pytest.mark.parametrize(
    "argv, message",
    [(["deal", "--games", "0"], "--games must be at least 1 (got 0)"),
     (["deal", "--edition", "video"], "--edition is for the card game only")],
)
def test_bad_input_exits_2_with_its_reason(argv, message, capsys):
    from sim.core.profiling import main

    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and capsys.readouterr().err.strip().endswith(message)
