"""Only so that `python setup.py bdist_apps` runs Panda3D's build commands (direct.dist): the builds are set up in
setup.cfg's [build_apps], the package in pyproject.toml. Here only the options setup.cfg can't give: it hands every
value over as a string, and build_apps reads these as lists (several modules for one app) and a truth value."""
from setuptools import setup

setup(options={"build_apps": {
    # every module of the game by pattern, so that packages added later come along (and those imported by name);
    # nmbr9.*.* takes the modules of each package in nmbr9/: a package deeper down is named here
    "include_modules": {"*": ["nmbr9.*", "nmbr9.*.*", "nmbr9.scene.screens.*"]},
    "exclude_modules": {"*": ["tkinter", "_tkinter", "setuptools", "pkg_resources", "pytest", "hypothesis"]},
    "bam_model_extensions": ["egg"],   # the tile models made .bam by Panda3D's own loader: no egg2bam on the PATH
    "use_optimized_wheels": False,     # the wheels from PyPI only: archive.panda3d.org is not reachable everywhere
}})
