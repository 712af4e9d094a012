"""Transports move JSON text to and from :mod:`pybridge.protocol` and nothing else."""
