"""The committed Auto-Join case set fresh12 (bench/data/autojoin-fresh12; never tuned on until round 15, development since) meets its
admission criteria (bench/results/autojoin_fresh12_cases.md), checked with the case maker's
hand-written reference functions only (no learner runs here, and neither the package nor the
evaluator is imported): every case is in FRESH12_CASES and split_of names it, no other split
holds it, the target key is a key, the join is 1:1 or N:1, neither table has duplicate rows
or rows the evaluator cannot tell apart, tables have at most 2,000 rows, every ground-truth
row names a source and a target row, there are at least 10 truth pairs, and the reference
function writes the target key of at least 90 % of them. Criterion (a) is checked on the
case maker's source.

Regenerating the cases needs their sources (pip packages, Python 3.11.7's standard library
and Debian 12's packages at the pinned versions and file contents); the regeneration test
skips, naming what differs, where they are not here.
"""
from __future__ import annotations

import pytest

from fresh_set_checks import FreshSet, earlier

# The modules fresh12's section of the case maker may import: its pool's, and importlib / re /
# shutil / subprocess / json / inspect (versions, package files, dpkg-query, parsing).
ALLOWED_IMPORTS = {"altair", "jupyterlab", "logging", "pydoc", "pydoc_data", "sqlite3",
                   "syslog", "importlib", "re", "shutil", "subprocess", "json", "inspect"}
EARLIER, EARLIER_STDLIB = earlier(("fresh8", "fresh9", "fresh10", "fresh11"))

SET = FreshSet("fresh12", ALLOWED_IMPORTS, EARLIER, EARLIER_STDLIB,
               forbidden_prefixes=("/usr/share/zoneinfo", "/usr/share/iso-codes", "/etc/mime.types",
                                   "/usr/share/mime", "/etc/services", "/etc/protocols",
                                   "/usr/share/X11", "/usr/share/i18n", "/usr/share/package-lists",
                                   "/usr/include/x86_64-linux-gnu/bits", "/usr/include/arpa"),
               earlier_sets=("fresh8", "fresh9", "fresh10", "fresh11"))
REFERENCE = SET.reference


def test_cases_split_and_references_agree():
    SET.check_split()


@pytest.mark.parametrize("case", sorted(REFERENCE))
def test_case_meets_admission_criteria(case):
    key, ref = REFERENCE[case]
    SET.check_case(SET.data / case, key, ref)


def test_a_broken_case_fails(tmp_path):
    """The check above fails on copies of a case broken on purpose, one criterion each."""
    SET.check_broken_copies(tmp_path, "gdb_syscalls_linux_numbers",
                            lambda r: "__NR_" + r["syscall"].upper())


def test_references_on_hand_checked_rows():
    """A few rows written by hand, so a broken reference function cannot pass unseen."""
    ref = {case: f for case, (_, f) in REFERENCE.items()}
    assert ref["altair_channel_classes"]({"class": "X"}) == "x"
    assert ref["altair_channel_classes"]({"class": "StrokeDashValue"}) == "strokeDash"
    assert ref["altair_channel_classes"]({"class": "XError2Value"}) == "xError2"
    assert ref["altair_channel_classes"]({"class": "ColorDatum"}) == "color"
    assert ref["altair_mark_methods"]({"method": "mark_errorband"}) == "errorband"
    assert ref["gdb_syscalls_linux_numbers"]({"syscall": "read"}) == "__NR_read"
    assert ref["x11_event_masks_xcb"]({"event mask": "KeyPressMask"}) == \
        "XCB_EVENT_MASK_KEY_PRESS"
    assert ref["x11_event_masks_xcb"]({"event mask": "Button1MotionMask"}) == \
        "XCB_EVENT_MASK_BUTTON_1_MOTION"
    assert ref["x11_event_masks_xcb"]({"event mask": "NoEventMask"}) == "XCB_EVENT_MASK_NO_EVENT"
    assert ref["gdb_syscall_man7_urls"]({"name": "read"}) == \
        "https://man7.org/linux/man-pages/man2/read.2.html"
    assert ref["iproute2_dscp_nft_names"]({"dsfield name": "AF11"}) == "af11"
    assert ref["jupyterlab_settings_paths"]({"plugin": "@jupyterlab/notebook-extension:tracker"}) \
        == "~/.jupyter/lab/user-settings/@jupyterlab/notebook-extension/tracker.jupyterlab-settings"
    assert ref["perl_release_dates"]({"released": "2022-05-28"}) == "28/05/2022"
    assert ref["udev_pci_class_codes"]({"class": "0C", "subclass": "03"}) == "0c03"


def test_reads_no_lake_file_and_only_pool_modules():
    SET.check_sources()


def test_reads_only_pinned_files_of_new_sources():
    SET.check_pinned_files()


def test_making_the_cases_imports_no_learner(tmp_path):
    SET.check_no_learner_import(tmp_path)


def test_regenerated_cases_are_identical(tmp_path):
    SET.check_regenerated(tmp_path)
