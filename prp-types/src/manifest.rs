//! The conformance manifest of a protocol directory (PROTOCOL §7).
