"""The committed never-tuned Auto-Join case set fresh14 (bench/data/autojoin-fresh14) meets its
admission criteria (bench/results/autojoin_fresh14_cases.md), checked with the case maker's
hand-written reference functions only (no learner runs here, and neither the package nor the
evaluator is imported): every case is in FRESH14_CASES and split_of names it, no other split
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

# The modules fresh14's section of the case maker may import: its pool's (ast, also to parse
# idlelib's and prompt_toolkit's source; inspect for the Unparser's signatures), and
# importlib / re (package files, parsing).
ALLOWED_IMPORTS = {"ast", "inspect", "importlib", "re"}
EARLIER, EARLIER_STDLIB = earlier(("fresh8", "fresh9", "fresh10", "fresh11", "fresh12",
                                   "fresh13"))
EARLIER |= {"boto3", "botocore", "awscli", "cfn-lint", "cfnlint",
            "aws-sam-translator"}              # the AWS data the lead used this session

SET = FreshSet("fresh14", ALLOWED_IMPORTS, EARLIER, EARLIER_STDLIB,
               forbidden_prefixes=("/usr/share/zoneinfo", "/usr/share/iso-codes", "/etc/mime.types",
                                   "/usr/share/mime", "/etc/services", "/etc/protocols",
                                   "/usr/share/X11", "/usr/share/i18n", "/usr/share/package-lists",
                                   "/usr/include/x86_64-linux-gnu", "/usr/include/arpa",
                                   "/usr/include/X11", "/usr/include/xcb", "/usr/include/openssl",
                                   "/usr/include/nss", "/usr/share/gdb", "/etc/iproute2",
                                   "/lib/udev", "/usr/share/perl", "/usr/share/vim",
                                   "/usr/include/tcl8.6", "/usr/include/linux",
                                   "/usr/lib/google-cloud-sdk", "/usr/include/GL",
                                   "/usr/include/GLES", "/usr/include/expat",
                                   "/usr/include/freetype2", "/usr/include/lzma",
                                   "/usr/include/libxml2", "/usr/include/llvm",
                                   "/usr/share/doc/nodejs", "/usr/lib/node_modules",
                                   "/usr/lib/jvm", "/usr/share/icons/Adwaita/scalable/mimetypes"),
               earlier_sets=("fresh8", "fresh9", "fresh10", "fresh11", "fresh12", "fresh13"))
REFERENCE = SET.reference


def test_cases_split_and_references_agree():
    SET.check_split()


@pytest.mark.parametrize("case", sorted(REFERENCE))
def test_case_meets_admission_criteria(case):
    key, ref = REFERENCE[case]
    SET.check_case(SET.data / case, key, ref)


def test_a_broken_case_fails(tmp_path):
    """The check above fails on copies of a case broken on purpose, one criterion each."""
    SET.check_broken_copies(tmp_path, "ast_nodes_unparser_methods",
                            lambda r: "visit_" + r["node class"].lower())


def test_references_on_hand_checked_rows():
    """A few rows written by hand, so a broken reference function cannot pass unseen."""
    ref = {case: f for case, (_, f) in REFERENCE.items()}
    assert ref["libpng_info_read_support"]({"info flag": "PNG_INFO_bKGD"}) == \
        "PNG_READ_bKGD_SUPPORTED"
    assert ref["ast_nodes_unparser_methods"]({"node class": "BinOp"}) == "visit_BinOp"
    assert ref["idlelib_keys_menu_events"]({"binding": "close-window"}) == "<<close-window>>"
    assert ref["idlelib_highlight_theme_elements"]({"theme option": "normal-foreground"}) == \
        "normal"
    assert ref["idlelib_highlight_theme_elements"]({"theme option": "cursor-foreground"}) == \
        "cursor"
    assert ref["adwaita_icon_paths"]({"icon": "edit-copy-symbolic", "context": "actions"}) == \
        "scalable/actions/edit-copy-symbolic.svg"
    assert ref["ipython_magic_doc_urls"]({"magic": "timeit"}) == \
        "https://ipython.readthedocs.io/en/stable/interactive/magics.html#magic-timeit"
    assert ref["libxslt_api_doc_urls"]({"function": "xsltApplyTemplates",
                                        "header": "transform"}) == \
        "https://gnome.pages.gitlab.gnome.org/libxslt/html/libxslt-transform.html#xsltApplyTemplates"
    assert ref["prompt_toolkit_named_command_handlers"]({"command": "beginning-of-line"}) == \
        "beginning_of_line"
    assert ref["prompt_toolkit_named_command_handlers"](
        {"command": "edit-and-execute-command"}) != "edit_and_execute"    # the one exception


def test_reads_no_lake_file_and_only_pool_modules():
    SET.check_sources()


def test_reads_only_pinned_files_of_new_sources():
    SET.check_pinned_files()
    paths = set(SET.maker.FRESH14_FILES)
    assert not any("boto" in p or "awscli" in p or "cfnlint" in p or "samtranslator" in p
                   or "mimetypes" in p for p in paths)


def test_making_the_cases_imports_no_learner(tmp_path):
    SET.check_no_learner_import(tmp_path)


def test_regenerated_cases_are_identical(tmp_path):
    SET.check_regenerated(tmp_path)
