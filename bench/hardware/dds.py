"""CycloneDDS participants for the unitree_sdk2 interface, on an explicit domain and
network interface.

The real G1 talks on domain 0 over the wired interface that holds a 192.168.123.x
address; unitree_mujoco and this project's mock robot use another domain over
loopback. Linux's loopback has no multicast, so on ``lo`` discovery goes to unicast
peers on 127.0.0.1 instead; that also keeps a simulated robot off every real network.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from cyclonedds._clayer import ddspy_take, ddspy_write
from cyclonedds.core import InstanceState, Qos, SampleState, ViewState
from cyclonedds.domain import Domain, DomainParticipant
from cyclonedds.internal import InvalidSample
from cyclonedds.pub import DataWriter
from cyclonedds.qos import Policy
from cyclonedds.sub import DataReader
from cyclonedds.topic import Topic

from bench.hardware.wire import CdrCodec

LOOPBACK = "lo"
MAX_LOOPBACK_PARTICIPANTS = 20  # unicast discovery probes this many ports per domain


def cyclonedds_config(domain_id: int, interface: str) -> str:
    """The CycloneDDS XML for one domain on one interface."""
    if interface == LOOPBACK:
        discovery = ("<Discovery><ParticipantIndex>auto</ParticipantIndex>"
                     f"<MaxAutoParticipantIndex>{MAX_LOOPBACK_PARTICIPANTS}"
                     "</MaxAutoParticipantIndex><Peers><Peer address=\"127.0.0.1\"/></Peers>"
                     "</Discovery>")
        multicast = "<AllowMulticast>false</AllowMulticast>"
    else:
        discovery, multicast = "", ""
    return (f"<CycloneDDS><Domain Id=\"{domain_id}\"><General><Interfaces>"
            f"<NetworkInterface name=\"{interface}\"/></Interfaces>{multicast}</General>"
            f"{discovery}</Domain></CycloneDDS>")


# A process configures each domain once; links on it (the bridge and the mock robot in
# one composed process) share it.
_DOMAINS: dict[int, tuple[str, Domain]] = {}


def _domain(domain_id: int, interface: str) -> Domain:
    if domain_id in _DOMAINS:
        known, domain = _DOMAINS[domain_id]
        if known != interface:
            raise ValueError(f"DDS domain {domain_id} is already on {known!r} in this process; "
                             f"cannot also use it on {interface!r}")
        return domain
    domain = Domain(domain_id, cyclonedds_config(domain_id, interface))
    _DOMAINS[domain_id] = (interface, domain)
    return domain


class DdsLink:
    """One participant on (domain, interface), with keep-last-1 best-effort topics as
    unitree_sdk2 uses for its real-time channels (only the newest sample matters)."""

    def __init__(self, domain_id: int, interface: str = LOOPBACK):
        if not 0 <= domain_id <= 232:
            raise ValueError(f"DDS domain id {domain_id} is out of range 0-232")
        if not interface:
            raise ValueError("no network interface given: use 'lo' for a simulated robot, "
                             "or the interface on the robot's 192.168.123.x network")
        self.domain_id = domain_id
        self.interface = interface
        self._domain = _domain(domain_id, interface)
        self.participant = DomainParticipant(domain_id)
        self._topics: dict[str, Topic] = {}
        self.qos = Qos(Policy.Reliability.BestEffort, Policy.History.KeepLast(1))

    def _topic(self, name: str, datatype: Any) -> Topic:
        if name not in self._topics:
            self._topics[name] = Topic(self.participant, name, datatype)
        return self._topics[name]

    def writer(self, name: str, datatype: Any) -> DataWriter:
        """A writer on topic ``name``."""
        return DataWriter(self.participant, self._topic(name, datatype), qos=self.qos)

    def reader(self, name: str, datatype: Any) -> DataReader:
        """A reader on topic ``name``; ``latest(reader)`` takes its newest sample."""
        return DataReader(self.participant, self._topic(name, datatype), qos=self.qos)


def latest(reader: DataReader) -> Any:
    """The newest unread valid sample of a reader (not a dispose notice), or None."""
    samples = [s for s in reader.take(N=64) if not isinstance(s, InvalidSample)]
    return samples[-1] if samples else None


# The body messages skip cyclonedds's Python (de)serializer: these call the same C
# functions as DataWriter.write and DataReader.take, with bytes from a CdrCodec.
_ANY_SAMPLE = SampleState.Any | ViewState.Any | InstanceState.Any


def write_record(writer: DataWriter, codec: CdrCodec, record: np.ndarray) -> None:
    """Send a C-struct record as the writer's message type."""
    ddspy_write(writer._ref, codec.encode(record))


def latest_record(reader: DataReader, codec: CdrCodec) -> np.ndarray | None:
    """The newest unread sample of a reader as a C-struct record, or None."""
    samples = ddspy_take(reader._ref, _ANY_SAMPLE, 64)
    valid = [data for data, info in samples if info.valid_data]
    return codec.decode(valid[-1]) if valid else None
