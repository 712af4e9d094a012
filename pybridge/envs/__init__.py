"""Learning environments over the runtime (docs/envs.md): a Gymnasium one (one learner
against a chosen policy) and a PettingZoo AEC one (both sides), with action masks from the
runtime's legal answers and observations from each side's own view. They need the ``envs``
extra (Gymnasium, PettingZoo, NumPy); the runtime does not.
"""

from .aec_env import DuelAEC
from .encoding import MAX_HAND, Encoding
from .gym_env import DuelEnv

__all__ = ["MAX_HAND", "DuelAEC", "DuelEnv", "Encoding"]
