"""The build backend of `pip install ./python`: setuptools' own (setuptools.build_meta), taken
from the environment pip runs in instead of a copy fetched from the network.

pip builds a package in an isolated environment that hides the installed packages and then
installs the build requirements into it from an index; offline that fails. This backend asks
for no requirements, and puts the environment's site-packages back on sys.path before loading
setuptools, so the build uses what is installed: in a venv made with --system-site-packages,
Debian's python3-setuptools, python3-wheel and python3-numpy. Nothing is downloaded.
"""

import site
import sys

for _p in site.getsitepackages() + [site.getusersitepackages()]:
    if _p not in sys.path:
        sys.path.append(_p)

try:
    from setuptools import build_meta as _meta
except ImportError:  # pragma: no cover - a message instead of a traceback
    sys.exit("dhm: building needs setuptools (Debian: apt-get install python3-setuptools python3-wheel; in a venv "
             "made with --system-site-packages)")

build_wheel = _meta.build_wheel
build_sdist = _meta.build_sdist
prepare_metadata_for_build_wheel = _meta.prepare_metadata_for_build_wheel


def get_requires_for_build_wheel(config_settings=None):
    return []  # setuptools, wheel and numpy come from the environment (above)


def get_requires_for_build_sdist(config_settings=None):
    return []
