//! The replay reducer: events folded into a session snapshot and a parity summary (PROTOCOL §2).
