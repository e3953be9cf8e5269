"""Shared fixtures."""

import pytest

from replikv import Cluster


@pytest.fixture
def cluster() -> Cluster:
    """Three nodes, N=3, R=2, W=2."""
    return Cluster(["n1", "n2", "n3"], n=3, r=2, w=2, seed=7)
