"""The contract every registered game keeps."""

import json

import pytest

import golden

EXPECTED = json.loads(golden.GOLDEN.read_text())


@pytest.mark.parametrize("case", golden.CASES, ids=[c[0] for c in golden.CASES])
def test_golden_tables_are_unchanged(case):
    assert golden.differences(EXPECTED[case[0]], golden.compute(case)) == []
