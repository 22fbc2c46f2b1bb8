"""Settings in one place: Spark master and resources, build parameters, search defaults.

Every value can be set by keyword (``build_index(..., master=...)``), by CLI option, or by
environment variable (``LAKEJOIN_SPARK_MASTER``, ``LAKEJOIN_SPARK_DRIVER_MEMORY``,
``LAKEJOIN_SPARK_LOCAL_DIR``, ``LAKEJOIN_LOG_DIR``, ``LAKEJOIN_JVM_CLASS_CACHE=0`` and
``LAKEJOIN_JVM_CLASS_CACHE_DIR`` for the driver JVM's class archive); keywords win over the
environment.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path


def _env(name: str, default=None):
    v = os.environ.get(name)
    return v if v not in (None, "") else default


@dataclass(frozen=True)
class SparkSettings:
    master: str = field(default_factory=lambda: _env("LAKEJOIN_SPARK_MASTER", "local[*]"))
    app_name: str = "lakejoin"
    driver_memory: str = field(default_factory=lambda: _env("LAKEJOIN_SPARK_DRIVER_MEMORY", "2g"))
    executor_memory: str | None = field(default_factory=lambda: _env("LAKEJOIN_SPARK_EXECUTOR_MEMORY"))
    shuffle_partitions: int = field(default_factory=lambda: int(_env("LAKEJOIN_SPARK_SHUFFLE_PARTITIONS", "8")))
    local_dir: str | None = field(default_factory=lambda: _env("LAKEJOIN_SPARK_LOCAL_DIR"))
    log_dir: str = field(default_factory=lambda: _env(
        "LAKEJOIN_LOG_DIR", str(Path.home() / ".cache" / "lakejoin" / "logs")))
    extra: dict = field(default_factory=dict)
    class_cache: bool = field(default_factory=lambda: _env("LAKEJOIN_JVM_CLASS_CACHE", "1") != "0")
    class_cache_dir: str = field(default_factory=lambda: _env(
        "LAKEJOIN_JVM_CLASS_CACHE_DIR", str(Path.home() / ".cache" / "lakejoin" / "jvm")))

    def with_master(self, master: str | None) -> "SparkSettings":
        return self if not master else replace(self, master=master)


@dataclass(frozen=True)
class BuildSettings:
    num_perm: int = 256          # MinHash signature length (thesis §2.3.3 examples, Go README)
    minhash_seed: int = 1
    files_per_task: int = 4      # small files read per Spark task in the sniffing/reading pass
    sample_values: int = 5       # most frequent raw values kept per column in the profile
    components: tuple = ()       # optional components to add (later issues register them)
    mate_bits: int = 128         # XASH / super-key size of the "mate" component: 128 or 512
    component_options: dict = field(default_factory=dict)   # {component: {option: value}}

    def __post_init__(self):
        if self.mate_bits not in (128, 512):
            raise ValueError(f"mate_bits must be 128 or 512 (MATE §7.3 sizes; got {self.mate_bits!r}).")
