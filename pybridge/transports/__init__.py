"""Transports move JSON text to and from :mod:`pybridge.service` (the protocol) and nothing else."""
