# SPDX-License-Identifier: MIT
"""A PEP 517 build backend in the standard library alone, so `pip install resources/python`
works offline on any machine: the radt module is pure Python with no dependencies, and a wheel is
a zip file with three metadata files beside it (no setuptools or wheel packages needed)."""

import base64
import hashlib
import os
import zipfile

NAME = "radt"
VERSION = "0.1.0"
HERE = os.path.dirname(os.path.abspath(__file__))
METADATA = f"""Metadata-Version: 2.1
Name: {NAME}
Version: {VERSION}
Summary: radT's API for training scripts recorded by the radt collector (radt-explorer)
Requires-Python: >=3.7
"""
WHEEL = f"""Wheel-Version: 1.0
Generator: radt_build
Root-Is-Purelib: true
Tag: py3-none-any
"""


def _digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    filename = f"{NAME}-{VERSION}-py3-none-any.whl"
    dist_info = f"{NAME}-{VERSION}.dist-info"
    files = []
    for base, dirs, names in os.walk(os.path.join(HERE, NAME)):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in sorted(names):
            if name.endswith(".py"):
                path = os.path.join(base, name)
                with open(path, "rb") as f:
                    files.append((os.path.relpath(path, HERE).replace(os.sep, "/"), f.read()))
    files.append((f"{dist_info}/METADATA", METADATA.encode()))
    files.append((f"{dist_info}/WHEEL", WHEEL.encode()))
    record = "".join(f"{name},{_digest(data)},{len(data)}\n" for name, data in files)
    record += f"{dist_info}/RECORD,,\n"
    files.append((f"{dist_info}/RECORD", record.encode()))
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in files:
            wheel.writestr(name, data)
    return filename


def build_sdist(sdist_directory, config_settings=None):
    import tarfile

    filename = f"{NAME}-{VERSION}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as sdist:
        for name in ("pyproject.toml", "radt_build.py", NAME):
            sdist.add(os.path.join(HERE, name), arcname=f"{NAME}-{VERSION}/{name}",
                      filter=lambda t: None if "__pycache__" in t.name else t)
    return filename
