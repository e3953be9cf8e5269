"""replikv: a replicated key-value store over a deterministic simulated network."""

from .cluster import Cluster
from .errors import QuorumError, ReplikvError
from .network import Message, Network
from .node import Node
from .ring import preference_list
from .versioning import Record, Version

__all__ = [
    "Cluster",
    "Message",
    "Network",
    "Node",
    "QuorumError",
    "Record",
    "ReplikvError",
    "Version",
    "preference_list",
]
