"""The real-G1 path without ROS: CRC and wire types against unitree_sdk2py's own,
LowCmd_ assembly, the safety core (clamp, rate limit, watchdogs, arming) and the
bridge's logic. Plain objects, no rclpy."""

from __future__ import annotations

import importlib.util
import io
import json
import platform
import sys
import time
import types

import numpy as np
import pytest

from bench.hardware import crc, lowcmd, wire
from bench.hardware.bridge import BridgeCore
from bench.hardware.dds import DdsLink, cyclonedds_config, latest
from bench.hardware.mock_robot import GANTRY_S, LOWER_DAMPING, LOWER_S, MockG1
from bench.hardware.safety import OVERFLOW_LIMIT, Arming, ArmState, Heartbeat, TargetGuard
from bench.hardware.unitree_idl import (
    LOWCMD_TOPIC,
    GoMotorCmd,
    GoMotorCmds,
    HgLowCmd,
    HgLowState,
    HgMotorCmd,
    HgMotorState,
)
from bench.robot import constants as c


@pytest.fixture(scope="module")
def sdk():
    """unitree_sdk2py's IDL classes and CRC, loaded without the package's __init__.

    The PyPI wheel (unitree-sdk2 1.0.1) cannot be imported as a package (its __init__
    imports a ``b2`` module it does not ship), and it lacks the CRC's C library, so its
    CRC class runs its pure-Python path (the one it uses off Linux)."""
    spec = importlib.util.find_spec("unitree_sdk2py")
    if spec is None or spec.submodule_search_locations is None:
        pytest.skip("unitree-sdk2 (unitree_sdk2py) is not installed; requirements/nodeps.txt "
                    "pins it as the reference for the CRC and wire types")
    saved = {k: v for k, v in sys.modules.items() if k.startswith("unitree_sdk2py")}
    package = types.ModuleType("unitree_sdk2py")
    package.__path__ = list(spec.submodule_search_locations)
    sys.modules["unitree_sdk2py"] = package
    real_system = platform.system
    platform.system = lambda: "Windows"  # its CRC() loads a .so on Linux that is missing
    try:
        from unitree_sdk2py.idl.unitree_go.msg import dds_ as go
        from unitree_sdk2py.idl.unitree_hg.msg import dds_ as hg
        from unitree_sdk2py.utils.crc import CRC
        checker = CRC()
    finally:
        platform.system = real_system
    yield types.SimpleNamespace(hg=hg, go=go, crc=checker)
    for key in [k for k in sys.modules if k.startswith("unitree_sdk2py")]:
        del sys.modules[key]
    sys.modules.update(saved)


def _random_lowcmd(rng: np.random.Generator, sdk_hg=None):
    """The same random LowCmd_ as our type and (optionally) as unitree_sdk2py's."""
    values = [(int(rng.integers(0, 2)), *rng.normal(size=5).astype(np.float32).tolist(),
               int(rng.integers(0, 2**32))) for _ in range(35)]
    head = (int(rng.integers(0, 256)), int(rng.integers(0, 256)))
    reserve = rng.integers(0, 2**32, size=4).tolist()
    ours = HgLowCmd(mode_pr=head[0], mode_machine=head[1],
                    motor_cmd=[HgMotorCmd(*v) for v in values], reserve=reserve, crc=0)
    theirs = None if sdk_hg is None else sdk_hg.LowCmd_(
        mode_pr=head[0], mode_machine=head[1], motor_cmd=[sdk_hg.MotorCmd_(*v) for v in values],
        reserve=reserve, crc=0)
    return ours, theirs


def _random_lowstate(rng: np.random.Generator, sdk_hg):
    """The same random LowState_ as our type and as unitree_sdk2py's."""
    def f(n):
        return rng.normal(size=n).astype(np.float32).tolist()

    def u(n, bits=32):
        return rng.integers(0, 2**bits, size=n).tolist()

    motors = [dict(mode=int(rng.integers(0, 2)), q=f(1)[0], dq=f(1)[0], ddq=f(1)[0],
                   tau_est=f(1)[0], temperature=rng.integers(-100, 100, 2).tolist(),
                   vol=f(1)[0], sensor=u(2), motorstate=u(1)[0], reserve=u(4))
              for _ in range(35)]
    imu = dict(quaternion=f(4), gyroscope=f(3), accelerometer=f(3), rpy=f(3), temperature=-7)
    head = dict(version=u(2), mode_pr=1, mode_machine=5, tick=u(1)[0],
                wireless_remote=u(40, 8), reserve=u(4), crc=0)
    from bench.hardware.unitree_idl import HgImuState
    ours = HgLowState(**head, imu_state=HgImuState(**imu),
                      motor_state=[HgMotorState(**m) for m in motors])
    theirs = sdk_hg.LowState_(**head, imu_state=sdk_hg.IMUState_(**imu),
                              motor_state=[sdk_hg.MotorState_(**m) for m in motors])
    return ours, theirs


# ----- CRC and wire types ------------------------------------------------------------------

def _bitwise_crc(packed: bytes) -> int:
    """The CRC written out bit by bit, as Unitree documents it."""
    value = 0xFFFFFFFF
    for word in np.frombuffer(packed, "<u4")[:-1].tolist():
        for bit in range(31, -1, -1):
            top = value & 0x80000000
            value = (value << 1) & 0xFFFFFFFF
            if top:
                value ^= 0x04C11DB7
            if (word >> bit) & 1:
                value ^= 0x04C11DB7
    return value


def test_struct_layouts_have_the_c_sizes():
    assert wire.LOWCMD_DTYPE.itemsize == 1004  # unitree_hg LowCmd_
    assert wire.LOWSTATE_DTYPE.itemsize == 2092  # unitree_hg LowState_


def test_crc_matches_a_bitwise_reference():
    rng = np.random.default_rng(0)
    for _ in range(3):
        ours, _ = _random_lowcmd(rng)
        packed = ours.to_record().tobytes()
        assert crc.crc32_words(packed) == _bitwise_crc(packed)


def test_crc_matches_unitree_sdk2py_on_the_same_messages(sdk):
    rng = np.random.default_rng(1)
    for _ in range(5):
        ours, theirs = _random_lowcmd(rng, sdk.hg)
        assert crc.lowcmd_crc(ours) == sdk.crc.Crc(theirs)
        ours_state, theirs_state = _random_lowstate(rng, sdk.hg)
        assert crc.lowstate_crc(ours_state) == sdk.crc.Crc(theirs_state)
    # the bridge's own assembly carries the CRC unitree_sdk2py computes
    command = lowcmd.lowcmd(5, c.KEYFRAME_JOINTS, c.KP, c.KD)
    _, theirs = _random_lowcmd(rng, sdk.hg)
    for mine, other in zip(command.motor_cmd, theirs.motor_cmd, strict=True):
        for name in ("mode", "q", "dq", "tau", "kp", "kd", "reserve"):
            setattr(other, name, getattr(mine, name))
    theirs.mode_pr, theirs.mode_machine, theirs.reserve = 0, 5, [0, 0, 0, 0]
    assert command.crc == sdk.crc.Crc(theirs) != 0


def test_wire_types_serialize_like_unitree_sdk2py(sdk):
    rng = np.random.default_rng(2)
    ours, theirs = _random_lowcmd(rng, sdk.hg)
    assert ours.serialize() == theirs.serialize()
    state, their_state = _random_lowstate(rng, sdk.hg)
    assert state.serialize() == their_state.serialize()
    for version2 in (False, True):  # our fast CDR path gives cyclonedds's bytes
        assert ours.serialize(use_version_2=version2) == theirs.serialize(
            use_version_2=version2)
        assert state.serialize(use_version_2=version2) == their_state.serialize(
            use_version_2=version2)
    assert HgLowCmd.deserialize(theirs.serialize()) == ours
    assert HgLowState.deserialize(their_state.serialize()) == state
    grip = GoMotorCmds(cmds=[GoMotorCmd(mode=1, q=2.5, kp=5.0, kd=0.05)])
    their_grip = sdk.go.MotorCmds_(cmds=[sdk.go.MotorCmd_(mode=1, q=2.5, dq=0.0, tau=0.0,
                                                          kp=5.0, kd=0.05, reserve=[0, 0, 0])])
    assert grip.serialize() == their_grip.serialize()
    for ours_type, their_type in ((HgLowCmd, sdk.hg.LowCmd_), (HgLowState, sdk.hg.LowState_),
                                  (GoMotorCmds, sdk.go.MotorCmds_)):
        assert ours_type.__idl_typename__ == their_type.__idl_typename__


def test_unitree_sdk2py_reads_our_lowcmd_over_dds(sdk):
    link = DdsLink(231)  # loopback only; a domain no other test uses
    writer = link.writer("rt/lowcmd", HgLowCmd)
    reader = link.reader("rt/lowcmd", sdk.hg.LowCmd_)
    command = lowcmd.lowcmd(5, c.KEYFRAME_JOINTS, c.KP, c.KD)
    sample = None
    deadline = time.monotonic() + 5
    while sample is None and time.monotonic() < deadline:
        writer.write(command)
        time.sleep(0.02)
        sample = latest(reader)
    assert sample is not None, "no LowCmd_ came back over loopback DDS"
    assert sample.crc == command.crc == sdk.crc.Crc(sample)
    assert [m.q for m in sample.motor_cmd] == [m.q for m in command.motor_cmd]


def test_loopback_config_keeps_discovery_off_the_network():
    xml = cyclonedds_config(7, "lo")
    assert 'Domain Id="7"' in xml and 'name="lo"' in xml and "<AllowMulticast>false" in xml
    assert "127.0.0.1" in xml
    assert "AllowMulticast" not in cyclonedds_config(0, "eth0")
    with pytest.raises(ValueError, match="interface"):
        DdsLink(3, "")


# ----- LowCmd_ assembly ----------------------------------------------------------------

def test_lowcmd_sets_mode_gains_and_crc():
    q = c.KEYFRAME_JOINTS + 0.01
    record = lowcmd.lowcmd_record(5, q, c.KP, c.KD)
    command = lowcmd.lowcmd(5, q, c.KP, c.KD)
    assert command.mode_machine == 5 and command.mode_pr == 0
    assert [m.mode for m in command.motor_cmd] == [1] * 29 + [0] * 6
    sent_q, sent_kp, sent_kd = lowcmd.command_arrays(record)
    np.testing.assert_allclose(sent_q, q, atol=1e-6)
    np.testing.assert_allclose(sent_kp, c.KP)
    np.testing.assert_allclose(sent_kd, c.KD)
    assert all(m.dq == 0 and m.tau == 0 for m in command.motor_cmd)
    assert command.crc == crc.lowcmd_crc(command) == int(record["crc"])
    assert lowcmd.crc_ok(record) and lowcmd.crc_ok(command.to_record())
    command.motor_cmd[3].q += 0.1  # any change breaks the checksum
    assert command.crc != crc.lowcmd_crc(command)
    record["motor_cmd"]["kp"][0] += 1.0
    assert not lowcmd.crc_ok(record)


def test_damping_has_no_stiffness():
    command = lowcmd.damping_record(5)
    assert lowcmd.is_damping(command) and lowcmd.crc_ok(command)
    _, kp, kd = lowcmd.command_arrays(command)
    assert np.all(kp == 0) and np.all(kd == lowcmd.DAMPING_KD)
    assert not lowcmd.is_damping(lowcmd.lowcmd_record(5, c.KEYFRAME_JOINTS, c.KP, c.KD))


def test_lowstate_reading_and_validity():
    state = HgLowState(mode_machine=5, tick=1234)
    state.motor_state[2].q = 0.5
    state.imu_state.quaternion = [0.0, 1.0, 0.0, 0.0]
    state.crc = crc.lowstate_crc(state)
    record = wire.LOWSTATE_CODEC.decode(state.serialize())
    body = lowcmd.read_lowstate(record)
    assert body.q.shape == (29,) and body.q[2] == 0.5 and body.tick == 1234
    assert body.mode_machine == 5 and body.quat.tolist() == [0.0, 1.0, 0.0, 0.0]
    assert lowcmd.crc_ok(record) and HgLowState.from_record(record) == state
    state.tick += 1
    assert not lowcmd.crc_ok(state.to_record())


def test_gripper_mapping_round_trips():
    assert lowcmd.gripper_cmd(0.0).cmds[0].q == pytest.approx(lowcmd.DEX1_OPEN_Q)
    assert lowcmd.gripper_cmd(1.0).cmds[0].q == 0.0
    assert lowcmd.gripper_cmd(7.0).cmds[0].q == 0.0  # clamped
    assert lowcmd.gripper_closure(lowcmd.gripper_state(0.25)) == pytest.approx(0.25, abs=1e-6)


# ----- safety core -----------------------------------------------------------------------

def test_guard_clamps_to_limits_and_names_the_joints():
    guard = TargetGuard(dt=0.002, max_speed=1e6, ramp=0.0)  # no rate limit, no ramp
    guard.start(c.KEYFRAME_JOINTS)
    target = c.KEYFRAME_JOINTS.copy()
    knee = c.joint_index("left_knee_joint")
    target[knee] = 5.0
    result = guard.apply(target)
    assert result.q[knee] == c.JOINT_LIMITS[knee, 1]
    assert result.clamped == ["left_knee_joint"]
    assert np.all(result.q >= c.JOINT_LIMITS[:, 0]) and np.all(result.q <= c.JOINT_LIMITS[:, 1])


def test_guard_hands_a_small_excess_on_as_torque_and_clamps_a_large_one():
    """Up to OVERFLOW_LIMIT beyond a limit the excess is kept for the feedforward torque
    (a folded controller torque); further out it is dropped; while easing in, none."""
    guard = TargetGuard(dt=0.002, max_speed=1e6, ramp=0.0)
    guard.start(c.KEYFRAME_JOINTS)
    target = c.KEYFRAME_JOINTS.copy()
    waist, knee = c.joint_index("waist_pitch_joint"), c.joint_index("left_knee_joint")
    target[waist] = c.JOINT_LIMITS[waist, 1] + 0.15
    target[knee] = c.JOINT_LIMITS[knee, 1] + OVERFLOW_LIMIT + 0.01
    guard.apply(target)  # the one tick of easing in that even ramp 0 has
    result = guard.apply(target)
    assert result.q[waist] == c.JOINT_LIMITS[waist, 1]
    assert result.excess[waist] == pytest.approx(0.15)
    assert result.q[knee] == c.JOINT_LIMITS[knee, 1] and result.excess[knee] == 0.0
    assert np.count_nonzero(result.excess) == 1
    assert set(result.clamped) == {"waist_pitch_joint", "left_knee_joint"}
    easing = TargetGuard(dt=0.002, ramp=0.1)
    easing.start(c.KEYFRAME_JOINTS)
    assert not easing.apply(target).excess.any()


def test_guard_ramps_in_after_arming():
    guard = TargetGuard(dt=0.002, ramp=0.1)  # 50 ticks
    hanging = np.zeros(29)
    guard.start(hanging)
    target = c.KEYFRAME_JOINTS
    knee = c.joint_index("left_knee_joint")
    path = [guard.apply(target).q[knee] for _ in range(60)]
    assert path[0] == pytest.approx(target[knee] / 50)  # linear blend, not a jump
    assert path[24] == pytest.approx(target[knee] / 2)
    assert path[49] == pytest.approx(target[knee]) and not guard.easing
    assert np.all(np.diff(path) >= 0)


def test_guard_rate_limits_and_rejects_non_finite():
    guard = TargetGuard(dt=0.002, max_speed=10.0, ramp=0.0)
    guard.start(c.KEYFRAME_JOINTS)
    target = c.KEYFRAME_JOINTS.copy()
    target[0] += 1.0
    first = guard.apply(target)
    assert first.q[0] == pytest.approx(c.KEYFRAME_JOINTS[0] + 0.02)  # 10 rad/s x 2 ms
    for _ in range(60):
        last = guard.apply(target)
    assert last.q[0] == pytest.approx(target[0])  # reached after 50 ticks
    target[1] = np.nan
    held = guard.apply(target)
    assert held.q[1] == pytest.approx(c.KEYFRAME_JOINTS[1])
    assert held.rejected == [c.JOINTS[1]]
    with pytest.raises(RuntimeError, match="start"):
        TargetGuard(dt=0.002).apply(target)


def test_heartbeat_and_arming_refusals():
    beat = Heartbeat("policy action", 0.1)
    assert not beat.alive(0.0) and "no policy action yet" in beat.describe(0.0)
    beat.beat(1.0)
    assert beat.alive(1.09) and not beat.alive(1.11)
    arming = Arming([beat], expected_mode_machine=5)
    assert arming.state is ArmState.DISARMED  # starts disarmed
    assert "no LowState_" in arming.arm(1.0, None, None)[1]
    ok, message = arming.arm(1.05, 5, 4)
    assert not ok and "mode_machine mismatch" in message and "4" in message
    ok, message = arming.arm(1.05, 4, 5)
    assert not ok and "mode_machine mismatch" in message
    ok, message = arming.arm(2.0, 5, 5)
    assert not ok and "silent" in message and arming.state is ArmState.DISARMED
    assert arming.arm(1.05, 5, 5) == (True, "armed")
    assert arming.check(1.09) is None and arming.state is ArmState.ARMED
    reason = arming.check(1.2)
    assert reason is not None and "policy action silent" in reason
    assert arming.state is ArmState.FAULT and arming.check(1.3) is None  # reported once
    arming.disarm()
    assert arming.state is ArmState.DISARMED


def test_heartbeat_counts_from_the_oldest_unanswered_request():
    beat = Heartbeat("WBC targets", 0.07, answers=True)
    assert not beat.alive(0.0)  # never answered
    beat.beat(0.0)
    assert beat.alive(0.5)  # nothing asked since: a quiet requester is nobody's fault
    beat.expect(0.5)
    beat.expect(0.52)  # the oldest request counts
    assert beat.alive(0.57) and not beat.alive(0.571)
    assert "silent for 0.080 s" in beat.describe(0.58)
    beat.beat(0.58)
    assert beat.alive(1.0)


# ----- the bridge's logic ---------------------------------------------------------------

def _body(mode_machine: int = 5, now: float = 0.0) -> lowcmd.BodyState:
    """A LowState_ whose robot clock reads ``now``."""
    return lowcmd.BodyState(q=c.KEYFRAME_JOINTS.copy(), dq=np.zeros(29),
                            quat=np.array([1.0, 0, 0, 0]), gyro=np.zeros(3),
                            accel=np.zeros(3), tick=round(now * 1000), mode_machine=mode_machine)


def _feed(core: BridgeCore, now: float, policy: bool = True, wbc: bool = True) -> None:
    core.on_lowstate(_body(now=now), now)
    if policy:
        core.on_policy(c.KEYFRAME_JOINTS[15:], np.zeros(2))
    if wbc:
        core.on_wbc(c.KEYFRAME_JOINTS[:15], c.LOWER_BODY_KP, c.LOWER_BODY_KD)


def test_bridge_sends_nothing_before_lowstate_and_damping_while_disarmed():
    core = BridgeCore()
    assert core.tick(0.0).cmd is None  # mode_machine unknown
    core.on_lowstate(_body(), 0.0)
    tick = core.tick(0.001)
    assert tick.cmd is not None and lowcmd.is_damping(tick.cmd) and tick.grippers is None
    assert tick.cmd["mode_machine"] == 5
    assert core.arm(0.002)[0] is False  # no policy or WBC yet


def test_bridge_refuses_to_arm_on_a_mode_machine_mismatch():
    core = BridgeCore()
    core.on_lowstate(_body(mode_machine=3), 0.0)
    core.on_policy(c.KEYFRAME_JOINTS[15:], np.zeros(2))
    core.on_wbc(c.KEYFRAME_JOINTS[:15], c.LOWER_BODY_KP, c.LOWER_BODY_KD)
    ok, message = core.arm(0.01)
    assert not ok and "mode_machine mismatch" in message
    assert lowcmd.is_damping(core.tick(0.01).cmd)


def test_bridge_armed_clamps_logs_and_copies_mode_machine():
    core = BridgeCore()
    _feed(core, 0.0)
    assert core.arm(0.001) == (True, "armed")
    arms = c.KEYFRAME_JOINTS[15:].copy()
    arms[3] = 9.0  # left elbow far out of range
    core.on_policy(arms, np.array([0.5, 2.0]))
    events = []
    for k in range(300):
        now = 0.002 + k * 0.002
        tick = core.tick(now)
        events += tick.events
        core.on_lowstate(_body(now=now), now)
        core.on_policy(arms, np.array([0.5, 2.0]))
        core.on_wbc(c.KEYFRAME_JOINTS[:15], c.LOWER_BODY_KP, c.LOWER_BODY_KD)
    q, kp, _ = lowcmd.command_arrays(tick.cmd)
    elbow = c.joint_index("left_elbow_joint")
    assert q[elbow] == pytest.approx(c.JOINT_LIMITS[elbow, 1], abs=1e-6)
    assert np.all(kp > 0) and tick.cmd["mode_machine"] == 5 and lowcmd.crc_ok(tick.cmd)
    assert tick.grippers.tolist() == [0.5, 1.0]
    clamp_logs = [e for e in events if "clamped" in e]
    assert len(clamp_logs) == 1 and "left_elbow_joint 9.000 rad" in clamp_logs[0]
    assert core.clamp_count == 300
    assert not lowcmd.command_tau(tick.cmd).any()  # 9 rad is no folded torque


def test_bridge_sends_a_folded_torque_beyond_a_limit_as_lowcmd_tau():
    """A WBC target 0.1 rad past the waist pitch limit (a stance's folded feedforward)
    goes out as the limit plus tau = kp x 0.1, which the mock robot's servo adds."""
    core = BridgeCore()
    _feed(core, 0.0)
    assert core.arm(0.001)[0]
    lower = c.KEYFRAME_JOINTS[:15].copy()
    waist = c.joint_index("waist_pitch_joint")
    lower[waist] = c.JOINT_LIMITS[waist, 1] + 0.1
    for k in range(300):  # past the arming ramp
        now = 0.002 + k * 0.002
        tick = core.tick(now)
        core.on_lowstate(_body(now=now), now)
        core.on_policy(c.KEYFRAME_JOINTS[15:], np.zeros(2))
        core.on_wbc(lower, c.LOWER_BODY_KP, c.LOWER_BODY_KD)
    q, kp, _ = lowcmd.command_arrays(tick.cmd)
    tau = lowcmd.command_tau(tick.cmd)
    assert q[waist] == pytest.approx(c.JOINT_LIMITS[waist, 1], abs=1e-6)
    assert tau[waist] == pytest.approx(kp[waist] * 0.1, rel=1e-5)
    assert np.count_nonzero(tau) == 1 and lowcmd.crc_ok(tick.cmd)


@pytest.mark.parametrize("silent", ["policy", "wbc", "lowstate"])
def test_bridge_faults_into_damping_when_a_heartbeat_stops(silent):
    core = BridgeCore()
    _feed(core, 0.0)
    assert core.arm(0.0)[0]
    now, fault_at = 0.0, None
    while now < 0.5 and fault_at is None:
        now = round(now + 0.002, 3)
        if silent != "lowstate":
            _feed(core, now, policy=silent != "policy", wbc=silent != "wbc")
        core.on_request()  # every tick here: the silence counts from the first one
        tick = core.tick(now)
        if lowcmd.is_damping(tick.cmd):
            fault_at = now
            assert tick.fault is not None and tick.fault.startswith("damping")
    limit = core.lowstate.timeout if silent == "lowstate" else core.policy.timeout
    assert fault_at is not None and limit < fault_at <= limit + 0.004
    assert core.state is ArmState.FAULT
    assert core.arm(now)[0] is False  # re-arming needs the silent source back


def test_bridge_damps_70_ms_after_the_first_unanswered_request():
    core = BridgeCore()
    _feed(core, 0.0)
    assert core.arm(0.0)[0]
    killed_at, now, damped_at = 0.101, 0.0, None
    while damped_at is None and now < 1.0:
        now = round(now + 0.002, 3)
        _feed(core, now, wbc=now < killed_at)  # the WBC answers at once until killed
        if round(now * 1000) % 20 == 0:
            core.on_request()
        if lowcmd.is_damping(core.tick(now).cmd):
            damped_at = now
    # the request of 0.100 (after that tick's answer) is never answered: + 70 ms, next tick
    assert damped_at == pytest.approx(0.172) and damped_at - killed_at < 0.1


def test_bridge_heartbeats_run_on_the_robot_clock():
    """A slow host (the robot's clock at half the monotonic rate) fakes no silence."""
    core = BridgeCore()
    _feed(core, 0.0)
    assert core.arm(0.0)[0]
    for k in range(1, 200):
        wall = k * 0.004  # targets arrive every 4 ms of host time = 2 ms of robot time
        core.on_lowstate(_body(now=wall / 2), wall)
        core.on_request()
        core.on_policy(c.KEYFRAME_JOINTS[15:], np.zeros(2))
        if k % 30 == 0 and k <= 120:  # every 120 ms of host time, 60 of robot time
            core.on_wbc(c.KEYFRAME_JOINTS[:15], c.LOWER_BODY_KP, c.LOWER_BODY_KD)
        core.tick(wall)
        if k <= 150:  # the request after the last answer (k = 120) is 58 ms old at k = 150
            assert core.state is ArmState.ARMED
    assert core.state is ArmState.FAULT and "WBC targets silent" in core.arming.reason


def test_bridge_rejects_malformed_targets():
    core = BridgeCore()
    core.on_lowstate(_body(), 0.0)
    with pytest.raises(ValueError, match="expected"):
        core.on_policy(np.zeros(7), np.zeros(2))
    with pytest.raises(ValueError, match="gains"):
        core.on_wbc(np.zeros(15), np.full(15, -1.0), np.zeros(15))
    assert core.policy.last is None and core.wbc.last is None



# ----- free-running monitor -------------------------------------------------------------

@pytest.fixture(scope="module")
def flip_cup_scene():
    """flip_cup's compiled scene, reset and then put into a constructed success state."""
    import mujoco
    from task_states import success_state

    from bench.env import official_config
    from bench.robot import assembly
    from bench.sim.session import monitor_model
    from bench.tasks.base import Scene

    model, task = monitor_model("flip_cup", official_config("flip_cup"))
    data = mujoco.MjData(model)
    data.qpos[:] = assembly.keyframe_qpos(model)
    scene = Scene(model, data)
    task.reset(scene, np.random.default_rng(0))
    mujoco.mj_forward(model, data)
    success_state("flip_cup", scene)
    mujoco.mj_forward(model, data)
    return model, task, data


def _feed_poses(monitor, model, data, now, bodies=None):
    for body in bodies if bodies is not None else monitor.tracked:
        b = model.body(body)
        monitor.set_pose(body, data.xpos[b.id], data.xquat[b.id], now)


def test_free_running_monitor_tracks_the_pelvis_and_the_props(flip_cup_scene):
    from bench.hardware.free_running import FreeRunningMonitor
    model, task, _ = flip_cup_scene
    monitor = FreeRunningMonitor(task, model, hold_steps=3)
    assert monitor.tracked[0] == "pelvis" and "cup" in monitor.tracked


def test_free_running_monitor_reports_the_predicate_unavailable_without_poses(flip_cup_scene):
    from bench.hardware.free_running import AVAILABLE, FreeRunningMonitor
    model, task, data = flip_cup_scene
    joints = np.array([data.qpos[model.joint(j).qposadr[0]] for j in c.JOINTS])
    monitor = FreeRunningMonitor(task, model, hold_steps=3)
    _feed_poses(monitor, model, data, 0.0, bodies=["pelvis"])  # no cup pose
    for step in range(5):
        status = monitor.update(np.array([1.0, 0, 0, 0]), joints, np.zeros(2), 0.02 * step)
    assert not status.done and not status.success and status.held_steps == 0
    assert status.metrics == {AVAILABLE: 0.0}
    assert status.reason.startswith("predicate unavailable")
    assert "/bench/mocap/cup/pose" in status.reason and "pelvis" not in status.reason
    _feed_poses(monitor, model, data, 0.0)
    stale = monitor.update(np.array([1.0, 0, 0, 0]), joints, np.zeros(2), 1.0)  # 1 s old
    assert stale.metrics == {AVAILABLE: 0.0} and "/bench/mocap/pelvis/pose" in stale.reason


def test_free_running_monitor_holds_success_from_mocap_poses(flip_cup_scene):
    from bench.hardware.free_running import AVAILABLE, FreeRunningMonitor
    model, task, data = flip_cup_scene
    joints = np.array([data.qpos[model.joint(j).qposadr[0]] for j in c.JOINTS])
    monitor = FreeRunningMonitor(task, model, hold_steps=3)
    held = []
    for step in range(3):
        now = 0.02 * step
        _feed_poses(monitor, model, data, now)
        final = monitor.update(np.array([1.0, 0, 0, 0]), joints, np.zeros(2), now)
        held.append((final.held_steps, final.done))
    assert held == [(1, False), (2, False), (3, True)]
    assert final.done and final.success and final.termination.value == "success"
    assert final.metrics[AVAILABLE] == 1.0 and not final.fell


def test_free_running_monitor_latches_a_fall_from_the_imu(flip_cup_scene):
    from bench.hardware.free_running import FreeRunningMonitor
    model, task, _ = flip_cup_scene
    monitor = FreeRunningMonitor(task, model, hold_steps=3)
    upright = monitor.update(np.array([1.0, 0, 0, 0]), np.zeros(29), np.zeros(2), 0.0)
    assert not upright.fell
    half = np.radians(60.0) / 2  # 60 degrees of tilt, no mocap needed
    tilted = monitor.update(np.array([np.cos(half), np.sin(half), 0, 0]), np.zeros(29),
                            np.zeros(2), 0.02)
    assert tilted.fell
    again = monitor.update(np.array([1.0, 0, 0, 0]), np.zeros(29), np.zeros(2), 0.04)
    assert again.fell  # latched
    monitor.reset()
    assert not monitor.update(np.array([1.0, 0, 0, 0]), np.zeros(29), np.zeros(2), 0.06).fell


# ----- the mock robot's gantry -------------------------------------------------------------

def test_mock_g1_adds_the_lowcmd_feedforward_torque_to_its_servos():
    """tau rides on the servo as the target q + tau / kp (MuJoCo's servo is
    kp (q* - q) - kd q'), so the motor torque is the PD torque plus tau."""
    link = DdsLink(232)  # loopback only; a domain no other test uses
    robot = MockG1(link)
    writer = link.writer(LOWCMD_TOPIC, HgLowCmd)
    waist = c.joint_index("waist_pitch_joint")
    tau = np.zeros(c.NUM_JOINTS)
    tau[waist] = 12.5
    record = lowcmd.lowcmd_record(lowcmd.G1_29DOF_MODE_MACHINE, c.KEYFRAME_JOINTS, c.KP,
                                  c.KD, tau)
    deadline = time.monotonic() + 5.0
    while not robot.tau.any() and time.monotonic() < deadline:
        writer.write(HgLowCmd.from_record(record))
        time.sleep(0.005)
        robot.cycle()
    assert robot.tau[waist] == pytest.approx(12.5), "no LowCmd_ with tau reached the mock"
    ctrl = robot.world.data.ctrl[robot.world.motor_index]
    assert ctrl[waist] == pytest.approx(c.KEYFRAME_JOINTS[waist] + 12.5 / c.KP[waist])
    others = np.arange(c.NUM_JOINTS) != waist
    np.testing.assert_allclose(ctrl[others], c.KEYFRAME_JOINTS[others], atol=1e-6)


def test_mock_g1_gantry_holds_then_lowers_the_robot_onto_its_feet():
    trace = io.StringIO()
    link = DdsLink(230)  # loopback only; a domain no other test uses
    robot = MockG1(link, trace=trace)
    writer = link.writer(LOWCMD_TOPIC, HgLowCmd)
    w = robot.world
    base = slice(w.base_qpos, w.base_qpos + 7)
    for _ in range(25):  # no command yet: the motors are off and the gantry holds it
        robot.cycle()
    # (set before each 1 ms step, so one step of gravity off it at most)
    np.testing.assert_allclose(w.data.qpos[base], robot.stance, atol=1e-4)
    command = lowcmd.lowcmd(lowcmd.G1_29DOF_MODE_MACHINE, c.KEYFRAME_JOINTS, c.KP, c.KD)
    deadline = time.monotonic() + 5.0
    while robot.lowering_at is None and time.monotonic() < deadline:
        writer.write(command)
        time.sleep(0.005)
        robot.cycle()
    assert robot.lowering_at is not None, "no stiff LowCmd_ reached the mock over loopback"
    samples = []  # sim time, pelvis height and vertical speed, support force
    while robot.sim_time < robot.lowering_at + LOWER_S + 0.1:
        robot.cycle()
        samples.append((robot.sim_time, w.data.qpos[w.base_qpos + 2],
                        w.data.qvel[w.base_qvel + 2],
                        w.data.xfrc_applied[robot.pelvis_body, 2]))
    t, z, vz, support = np.array(samples).T
    events = {e["event"]: e["t"] for e in map(json.loads, trace.getvalue().splitlines())
              if "event" in e}
    assert events["lowering"] == pytest.approx(events["stiff"] + GANTRY_S, abs=0.003)
    assert events["released"] == pytest.approx(events["lowering"] + LOWER_S, abs=0.003)
    held = t < events["lowering"]
    np.testing.assert_allclose(z[held], robot.stance[2], atol=1e-4)
    assert not support[held].any()
    lowering = (t > events["lowering"] + 0.003) & (t < events["released"])  # a cycle in
    assert support[lowering][0] == pytest.approx(robot.weight, rel=0.05)
    # the weight carried falls linearly, plus the damper's force (from the speed one
    # physics step earlier, hence the tolerance)
    carried = robot.weight * (events["released"] - t[lowering]) / LOWER_S
    np.testing.assert_allclose(support[lowering] + LOWER_DAMPING * vz[lowering], carried,
                               atol=0.03 * robot.weight)
    # lowered, not dropped (the keyframe's PD alone does not balance the robot, so
    # what happens after the release is the graph test's to check, with the WBC)
    assert vz[lowering].min() > -0.2, f"the pelvis sank at {-vz[lowering].min():.2f} m/s"
    assert not support[t > events["released"]].any() and not w.data.xfrc_applied.any()


# ----- the mirror of the robot ------------------------------------------------------------

def test_mirror_gives_the_simulators_layouts_from_measured_state():
    from bench.hardware.mirror import RobotMirror
    from bench.ros.params import episode_config
    config = episode_config("flip_cup", "", '{"camera_keys": []}')
    mirror = RobotMirror("flip_cup", config)
    body = _body()
    body.q = c.KEYFRAME_JOINTS + 0.01
    body.gyro = np.array([0.1, -0.2, 0.3])
    half = np.radians(10) / 2
    body.quat = np.array([np.cos(half), 0.0, np.sin(half), 0.0])
    mirror.load(body, np.array([0.25, 1.0]), time=3.0, pelvis=np.array([1.0, 2.0, 0.7]))
    state = mirror.robot_state()
    np.testing.assert_allclose(state.joint_pos, body.q)
    np.testing.assert_allclose(state.base_ang_vel, body.gyro)
    np.testing.assert_allclose(state.base_pos, [1.0, 2.0, 0.7])
    assert state.time == 3.0 and state.projected_gravity[0] == pytest.approx(np.sin(2 * half))
    observation = mirror.observation()
    assert observation["low_dim"].shape == mirror.session.observe()["low_dim"].shape
    assert observation["rgb_obs"].shape[0] == 0
    with pytest.raises(ValueError, match="camera_keys"):
        RobotMirror("flip_cup", episode_config("flip_cup", "", "{}"))


def test_mirror_drops_a_stale_walking_goal_after_the_goal_timeout():
    from bench import layout
    from bench.hardware.mirror import RobotMirror
    from bench.ros.params import episode_config
    config = episode_config("flip_cup", "", '{"camera_keys": []}')
    mirror = RobotMirror("flip_cup", config)
    s = mirror.session
    raw = np.concatenate([[0.4, 0.0, 0.7, 0.2, 0.3], s.arm_targets, [0.0, 0.0]])
    mirror.apply_action(layout.normalize(raw, s.action_layout), now=10.0)
    timeout = config.controller.goal_timeout_s
    walking = mirror.base_command(10.0 + timeout)
    assert (walking.vx, walking.wz) == pytest.approx((0.4, 0.2))
    stale = mirror.base_command(10.0 + timeout + 0.02)
    assert (stale.vx, stale.vy, stale.wz) == (0.0, 0.0, 0.0)
    assert (stale.height, stale.torso_pitch) == pytest.approx((0.7, 0.3))


# ----- the driver switch in the graph description ------------------------------------------

@pytest.mark.parametrize(("driver", "nodes"), [
    ("sim", ["sim", "wbc", "task_monitor", "policy", "evaluator"]),
    ("mock_g1", ["wbc", "task_monitor", "policy", "g1_bridge", "mock_g1"]),
    ("g1", ["wbc", "task_monitor", "policy", "g1_bridge"]),
])
def test_the_driver_argument_switches_the_simulator_for_the_bridge(driver, nodes):
    from bench import graph as description
    graph = description.load_graph()
    planned = description.plan(description.parse_arguments([f"driver:={driver}"], graph), graph)
    assert [n.name for n in planned] == nodes
    assert sum(n.exit_ends_graph for n in planned) == 1  # evaluator or bridge ends the graph
    monitor = next(n for n in planned if n.name == "task_monitor")
    assert monitor.parameters["driver"] == driver  # free-running off the simulator


def test_an_unknown_driver_is_refused_with_the_choices():
    from bench import graph as description
    with pytest.raises(ValueError, match=r"driver:=robot is not one of \['sim', 'mock_g1', 'g1'\]"):
        description.parse_arguments(["driver:=robot"], description.load_graph())
