"""The Unitree G1 with Dex1-1 grippers: constants and MuJoCo model assembly."""
