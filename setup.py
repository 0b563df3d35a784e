"""Package discovery only; everything else is in pyproject.toml.

Every subpackage of gpumodels is found (a new paper's subpackage needs no entry anywhere), and
the sourced tables of data/ travel as the package gpumodels.data ([tool.setuptools.package-dir]).
"""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["gpumodels", "gpumodels.*"]), "gpumodels.data"])
