"""pybridge targeting: a card-targeting runtime for Godot 4 card games.

The pure runtime lives in :mod:`pybridge.runtime`; every transport reaches it through
:mod:`pybridge.protocol`.
"""

__version__ = "0.1.0"
