"""cardroom's server: rooms over WebSockets in front of the rules engine."""
