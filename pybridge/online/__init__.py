"""Online duels: an authoritative match (seats, tokens, move log and state hashes) served
over WebSocket, and the replay of a match's log (docs/online.md)."""
