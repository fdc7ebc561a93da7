// The `date-time` format as the PRP contract asserts it (PROTOCOL §1): UTC, whole seconds,
// optional milliseconds. One literal, included by prp-types' library and by its generator options.
r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{3})?Z$"
