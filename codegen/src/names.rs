//! Rust names from schema names: stable, collision-free, never a keyword.

/// `paperclip.prp.event.v1` -> `PaperclipPrpEventV1`, `in_progress` -> `InProgress`.
pub fn pascal(s: &str) -> String {
    let mut out = String::new();
    let mut upper = true;
    let mut prev_lower = false;
    for c in s.chars() {
        if c.is_ascii_alphanumeric() {
            if upper {
                out.push(c.to_ascii_uppercase());
            } else if c.is_ascii_uppercase() && !prev_lower {
                out.push(c.to_ascii_lowercase());
            } else {
                out.push(c);
            }
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
            upper = false;
        } else {
            upper = true;
            prev_lower = false;
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'V');
    }
    // `Self` is a keyword: no type or variant can be called that.
    if out == "Self" {
        out.push_str("Value");
    }
    out
}

/// `sourceEventId` -> `source_event_id`, keywords (and `build`) get a raw-identifier-free suffix.
pub fn snake(s: &str) -> String {
    let mut out = String::new();
    let mut prev_lower = false;
    for c in s.chars() {
        if c.is_ascii_uppercase() {
            if prev_lower {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
            prev_lower = false;
        } else if c.is_ascii_alphanumeric() {
            out.push(c);
            prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            if !out.ends_with('_') && !out.is_empty() {
                out.push('_');
            }
            prev_lower = false;
        }
    }
    let mut out = out.trim_end_matches('_').to_owned();
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'f');
    }
    // A field is also its builder's setter, which may not be called `build`.
    if KEYWORDS.contains(&out.as_str()) || out == "build" {
        out.push('_');
    }
    out
}

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern",
    "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut",
    "pub", "ref", "return", "self", "static", "struct", "super", "trait", "true", "type", "unsafe",
    "use", "where", "while", "abstract", "become", "box", "do", "final", "macro", "override",
    "priv", "try", "typeof", "unsized", "virtual", "yield",
];

/// Names a generated type must not take: the prelude's types, traits and variants that generated
/// code (and the runtime's macros expanded in it) names without a path, and `Self`.
pub const RESERVED_TYPES: &[&str] = &[
    "Option",
    "Some",
    "None",
    "Result",
    "Ok",
    "Err",
    "String",
    "Vec",
    "Box",
    "Self",
    "Default",
    "Clone",
    "Copy",
    "Debug",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "Hash",
    "From",
    "Into",
    "TryFrom",
    "TryInto",
    "AsRef",
    "Send",
    "Sync",
    "Sized",
    "Fn",
    "FnMut",
    "FnOnce",
    "Drop",
    "Iterator",
    "IntoIterator",
    "ToString",
    "ToOwned",
];

/// Whether `name` can name a type the caller chooses: PascalCase ASCII letters and digits, and
/// not reserved.
pub fn is_type_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
        && !RESERVED_TYPES.contains(&name)
}

/// Makes a type name unique within `taken`, by appending a number: neither taken nor reserved,
/// and with the name of its builder (`NameBuilder`) free too, which it takes as well.
pub fn unique_type(name: String, taken: &mut std::collections::BTreeSet<String>) -> String {
    let free = |n: &str, taken: &std::collections::BTreeSet<String>| {
        !RESERVED_TYPES.contains(&n)
            && !taken.contains(n)
            && !taken.contains(&format!("{n}Builder"))
    };
    let mut candidate = name.clone();
    let mut n = 2;
    while !free(&candidate, taken) {
        candidate = format!("{name}{n}");
        n += 1;
    }
    taken.insert(format!("{candidate}Builder"));
    taken.insert(candidate.clone());
    candidate
}

/// Makes `name` unique within `taken` by appending a number.
pub fn unique(name: String, taken: &mut std::collections::BTreeSet<String>) -> String {
    if taken.insert(name.clone()) {
        return name;
    }
    let mut n = 2;
    loop {
        let candidate = format!("{name}{n}");
        if taken.insert(candidate.clone()) {
            return candidate;
        }
        n += 1;
    }
}

/// The words of a PascalCase name: `EventV2Type` -> `Event`, `V2`, `Type`.
fn words(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in s.char_indices() {
        if i > start && c.is_ascii_uppercase() {
            out.push(&s[start..i]);
            start = i;
        }
    }
    if start < s.len() {
        out.push(&s[start..]);
    }
    out
}

fn is_version(w: &str) -> bool {
    w.len() > 1 && w.starts_with('V') && w[1..].bytes().all(|b| b.is_ascii_digit())
}

/// The name of a part of `parent` called `part` (both PascalCase), without stutter: a version word
/// closing the parent moves to the end, and words the part repeats from the parent's end are said
/// once. `Event` + `EventType` -> `EventType`; `EventV2` + `EventType` -> `EventTypeV2`;
/// `RuntimeRequest` + `RequestKind` -> `RuntimeRequestKind`; `Plan` + `Status` -> `PlanStatus`.
pub fn join(parent: &str, part: &str) -> String {
    join_with(parent, part, true)
}

/// [`join`] without dropping repeated words: for a part whose short name a sibling already has
/// (`requestKind` beside `kind`).
pub fn join_plain(parent: &str, part: &str) -> String {
    join_with(parent, part, false)
}

fn join_with(parent: &str, part: &str, drop_repeats: bool) -> String {
    let pw = words(parent);
    let (base, version) = match pw.split_last() {
        Some((last, rest)) if is_version(last) && !rest.is_empty() => (rest, *last),
        _ => (&pw[..], ""),
    };
    let mw = words(part);
    let overlap = (1..mw.len().min(base.len() + 1))
        .rev()
        .find(|&k| drop_repeats && base[base.len() - k..] == mw[..k])
        .unwrap_or(0);
    let mut out = base.concat();
    out.push_str(&mw[overlap..].concat());
    out.push_str(version);
    out
}

/// The name of one item of an array member called `member` (PascalCase): `Steps` -> `Step`,
/// `Families` -> `Family`, `Children` -> `Child`; a name that does not read as a plural gets `Item`.
pub fn singular(member: &str) -> String {
    let w = words(member);
    if let Some((last, rest)) = w.split_last()
        && is_version(last)
        && !rest.is_empty()
    {
        return format!("{}{last}", singular(&rest.concat()));
    }
    const IRREGULAR: &[(&str, &str)] = &[("Children", "Child"), ("Criteria", "Criterion")];
    for (plural, one) in IRREGULAR {
        if let Some(stem) = member.strip_suffix(plural) {
            return format!("{stem}{one}");
        }
    }
    let last = words(member).last().copied().unwrap_or_default();
    if last.len() > 2 {
        if let Some(stem) = member.strip_suffix("ies") {
            return format!("{stem}y");
        }
        if let Some(stem) = member.strip_suffix("sses") {
            return format!("{stem}ss");
        }
        if member.ends_with('s') && !["ss", "us", "is"].iter().any(|e| member.ends_with(e)) {
            return member[..member.len() - 1].to_owned();
        }
    }
    format!("{member}Item")
}

/// A name with its version words taken out: items whose names differ only there are the same type
/// in two versions of a schema (`CapabilitiesSessionReusePolicy`, `CapabilitiesSessionReusePolicyV2`).
pub fn unversioned(name: &str) -> String {
    words(name).into_iter().filter(|w| !is_version(w)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_without_stutter() {
        assert_eq!(join("Event", "EventType"), "EventType");
        assert_eq!(join("EventV2", "EventType"), "EventTypeV2");
        assert_eq!(join("EventV2", "Payload"), "EventPayloadV2");
        assert_eq!(join("RuntimeRequest", "RequestKind"), "RuntimeRequestKind");
        assert_eq!(join("Plan", "Status"), "PlanStatus");
        assert_eq!(join("Plan", "Plan"), "PlanPlan");
        assert_eq!(join("V2", "Type"), "V2Type");
        assert_eq!(
            join_plain("RequestV1", "RequestKind"),
            "RequestRequestKindV1"
        );
    }

    #[test]
    fn singular_items() {
        assert_eq!(singular("PlanSteps"), "PlanStep");
        assert_eq!(singular("TypedEventFamilies"), "TypedEventFamily");
        assert_eq!(singular("DelegationChildren"), "DelegationChild");
        assert_eq!(singular("ClaimCriteria"), "ClaimCriterion");
        assert_eq!(singular("Status"), "StatusItem");
        assert_eq!(singular("Classes"), "Class");
        assert_eq!(singular("Ids"), "Id");
        assert_eq!(singular("Ss"), "SsItem");
        assert_eq!(singular("Data"), "DataItem");
        assert_eq!(singular("RequestChoicesV1"), "RequestChoiceV1");
    }

    #[test]
    fn unversioned_names() {
        assert_eq!(unversioned("EventTypeV2"), "EventType");
        assert_eq!(unversioned("CapabilitiesV2Driver"), "CapabilitiesDriver");
    }
}

/// Names for the variants of `parent` told apart by the constants `values`: the words every
/// constant starts with are dropped, and a variant that already names the parent's kind is used as
/// it is. `Request` over `paperclip.runtime.request.v2` and `paperclip.interaction.request.v1` ->
/// `RuntimeRequestV2`, `InteractionRequestV1`.
pub fn variant_names(parent: &str, values: &[String]) -> Vec<String> {
    let all: Vec<String> = values.iter().map(|v| pascal(v)).collect();
    let split: Vec<Vec<&str>> = all.iter().map(|n| words(n)).collect();
    let mut common = 0;
    if split.len() > 1 {
        while split
            .iter()
            .all(|w| w.len() > common + 1 && w[common] == split[0][common])
        {
            common += 1;
        }
    }
    let kind = words(parent)
        .into_iter()
        .rev()
        .find(|w| !is_version(w))
        .unwrap_or_default();
    split
        .iter()
        .map(|w| {
            let part = w[common..].concat();
            if w[common..].contains(&kind) {
                part
            } else {
                join(parent, &part)
            }
        })
        .collect()
}

#[test]
fn variant_names_drop_the_common_prefix() {
    let v = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        variant_names(
            "Request",
            &v(&[
                "paperclip.runtime.request.v2",
                "paperclip.interaction.request.v1"
            ])
        ),
        ["RuntimeRequestV2", "InteractionRequestV1"]
    );
    assert_eq!(
        variant_names("Shape", &v(&["circle", "square"])),
        ["ShapeCircle", "ShapeSquare"]
    );
    assert_eq!(variant_names("Shape", &v(&["a"])), ["ShapeA"]);
}
