"""Operations: the room log, the stall watch, the audit of stored matches, demo data."""
