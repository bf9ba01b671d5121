"""The MuJoCo world: build, reset, step with PD torques, render cameras."""
