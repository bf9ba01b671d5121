"""Episode videos: ``videos/episode_<seed>/head.mp4`` (the head camera the policy sees,
enlarged 4x) and ``external.mp4`` (the tracking view), H.264 at 50 fps, written with
the ffmpeg binary that the PyPI package imageio-ffmpeg ships."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import imageio_ffmpeg
import numpy as np

FPS = 50  # one frame per control step
HEAD_SCALE = 4  # 84 px -> 336 px, nearest neighbour


class EpisodeVideo:
    """Two mp4 writers for one episode; feed it every observation, then close it."""

    def __init__(self, run_dir: Path, seed: int):
        self.folder = Path(run_dir) / "videos" / f"episode_{seed}"
        self.folder.mkdir(parents=True, exist_ok=True)
        self._writers: dict[str, Any] = {}

    def _write(self, name: str, frame: np.ndarray) -> None:
        if name not in self._writers:
            writer = imageio_ffmpeg.write_frames(
                str(self.folder / f"{name}.mp4"), (frame.shape[1], frame.shape[0]), fps=FPS,
                codec="libx264", pix_fmt_out="yuv420p", macro_block_size=16, quality=7)
            writer.send(None)  # start ffmpeg
            self._writers[name] = writer
        self._writers[name].send(np.ascontiguousarray(frame))

    def add(self, env: Any, observation: dict[str, np.ndarray]) -> None:
        """Append the head camera of ``observation`` and the env's external view."""
        head = observation["rgb_obs"][0] if observation["rgb_obs"].ndim == 4 else \
            observation["rgb_obs"][-1][0]  # frame-stacked: the newest frame
        self._write("head", head.transpose(1, 2, 0).repeat(HEAD_SCALE, 0).repeat(HEAD_SCALE, 1))
        external = env.render()
        if external is not None:
            self._write("external", external)

    def close(self) -> list[Path]:
        """Finish the files; returns their paths."""
        for writer in self._writers.values():
            writer.close()
        return sorted(self.folder.glob("*.mp4"))
