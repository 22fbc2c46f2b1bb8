"""A transformation search from a lake column learns on the values as its table writes them
(newuser23 D2): the index holds tokens ("10" for the vendor id "0010"), so the search
learned `"0x" + upper(vendor_id)` on "10", counted 2298 of 2325 ids onto the `0x` table
(98.8 %) while the join, reading "0010", matched all; it now counts what the join does."""
from __future__ import annotations

import pandas as pd
import pytest

from conftest import write_lake

# hex vendor ids: 12 all digits with a leading zero (read as numbers by the index), 28 others
IDS = [f"{n:04d}" for n in (1, 10, 14, 18, 70, 100, 123, 200, 333, 404, 555, 987)] + \
    [f"{0x1a00 + 37 * n:04x}" for n in range(28)]
VENDORS = pd.DataFrame({"vendor_id": IDS, "name": [f"maker {i}" for i in range(len(IDS))]})
HEX = pd.DataFrame({"VendorID": ["0x" + v.upper() for v in IDS],
                    "country": [f"c{i % 5}" for i in range(len(IDS))]})


@pytest.fixture(scope="module")
def pci_index(spark, tmp_path_factory):
    from lakejoin_jupyter import build_index
    root = write_lake(tmp_path_factory.mktemp("pcilake") / "lake",
                      {"vendors.csv": VENDORS, "vendors_0x.csv": HEX})
    out = tmp_path_factory.mktemp("pciidx") / "lake.index"
    build_index(root, out, spark=spark, progress=False, components=["transform"])
    return out


@pytest.mark.spark
def test_the_search_counts_what_the_join_joins(pci_index):
    from lakejoin_jupyter import open_index
    e = open_index(pci_index)
    hit = next(h for h in e.search("vendors", "vendor_id", method="transform", k=3)
               if h.column == "VendorID")
    # oracle: every id is written "0x" + upper(id) in the other table
    assert hit.overlap == len(IDS)
    joined = hit.autojoin(VENDORS).join(VENDORS)
    assert joined["VendorID"].notna().sum() == len(IDS) == hit.overlap
