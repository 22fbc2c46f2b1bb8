"""The committed never-tuned Auto-Join case set fresh13 (bench/data/autojoin-fresh13) meets its
admission criteria (bench/results/autojoin_fresh13_cases.md), checked with the case maker's
hand-written reference functions only (no learner runs here, and neither the package nor the
evaluator is imported): every case is in FRESH13_CASES and split_of names it, no other split
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

# The modules fresh13's section of the case maker may import: its pool's, and importlib / re /
# shutil / subprocess / json / gzip / ast (versions, package files, dpkg-query, parsing).
ALLOWED_IMPORTS = {"playwright", "lzma", "pickle", "pickletools", "tkinter", "_tkinter", "xml",
                   "zlib", "importlib", "re", "shutil", "subprocess", "json", "gzip", "ast"}
EARLIER, EARLIER_STDLIB = earlier(("fresh8", "fresh9", "fresh10", "fresh11", "fresh12"))
EARLIER |= {"boto3", "botocore", "awscli", "cfn-lint", "cfnlint",
            "aws-sam-translator"}              # the AWS data the lead used this session

SET = FreshSet("fresh13", ALLOWED_IMPORTS, EARLIER, EARLIER_STDLIB,
               forbidden_prefixes=("/usr/share/zoneinfo", "/usr/share/iso-codes", "/etc/mime.types",
                                   "/usr/share/mime", "/etc/services", "/etc/protocols",
                                   "/usr/share/X11", "/usr/share/i18n", "/usr/share/package-lists",
                                   "/usr/include/x86_64-linux-gnu", "/usr/include/arpa",
                                   "/usr/include/X11", "/usr/include/xcb", "/usr/include/openssl",
                                   "/usr/include/nss", "/usr/share/gdb", "/etc/iproute2",
                                   "/lib/udev", "/usr/share/perl", "/usr/share/vim",
                                   "/usr/include/tcl8.6/tk", "/usr/include/linux"),
               earlier_sets=("fresh8", "fresh9", "fresh10", "fresh11", "fresh12"))
REFERENCE = SET.reference


def test_cases_split_and_references_agree():
    SET.check_split()


@pytest.mark.parametrize("case", sorted(REFERENCE))
def test_case_meets_admission_criteria(case):
    key, ref = REFERENCE[case]
    SET.check_case(SET.data / case, key, ref)


def test_a_broken_case_fails(tmp_path):
    """The check above fails on copies of a case broken on purpose, one criterion each."""
    SET.check_broken_copies(tmp_path, "gcloud_aiplatform_collections",
                            lambda r: r["collection"].upper())


def test_references_on_hand_checked_rows():
    """A few rows written by hand, so a broken reference function cannot pass unseen."""
    ref = {case: f for case, (_, f) in REFERENCE.items()}
    assert ref["gcloud_accessapproval_request_types"](
        {"method id": "accessapproval.folders.approvalRequests.approve"}) == \
        "AccessapprovalFoldersApprovalRequestsApproveRequest"
    assert ref["gcloud_aiplatform_collections"](
        {"collection": "projects.locations.batchPredictionJobs"}) == \
        "PROJECTS_LOCATIONS_BATCHPREDICTIONJOBS"
    assert ref["gl_functions_pfn_typedefs"]({"function": "glCullFace"}) == "PFNGLCULLFACEPROC"
    assert ref["pickletools_opcodes_unpickler"]({"opcode": "SHORT_BINUNICODE"}) == \
        "load_short_binunicode"
    assert ref["pickletools_opcodes_unpickler"]({"opcode": "NEWTRUE"}) == "load_newtrue"
    assert ref["expat_reference_urls"]({"function": "XML_ParserCreate"}) == \
        "https://libexpat.github.io/doc/api/latest/#XML_ParserCreate"
    assert ref["freetype_opentype_spec_urls"]({"table tag": "OS/2"}) == \
        "https://learn.microsoft.com/en-us/typography/opentype/spec/os2"
    assert ref["freetype_opentype_spec_urls"]({"table tag": "CFF "}) == \
        "https://learn.microsoft.com/en-us/typography/opentype/spec/cff"
    assert ref["node_abi_prebuild_tags"]({"runtime": "node", "modules": "115"}) == "node-v115"
    assert ref["playwright_device_viewports"]({"viewport width": "390",
                                               "viewport height": "664"}) == "390x664"


def test_reads_no_lake_file_and_only_pool_modules():
    SET.check_sources()


def test_reads_only_pinned_files_of_new_sources():
    SET.check_pinned_files()
    paths = set(SET.maker.FRESH13_FILES)
    assert not any("boto" in p or "awscli" in p or "cfnlint" in p or "samtranslator" in p
                   for p in paths)


def test_making_the_cases_imports_no_learner(tmp_path):
    SET.check_no_learner_import(tmp_path)


def test_regenerated_cases_are_identical(tmp_path):
    SET.check_regenerated(tmp_path)
