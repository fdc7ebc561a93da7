//! Impls that every generated type of a kind shares word for word, as macros: the generated code
//! declares the type (with its docs) and names the macro, so each kind's boilerplate exists once,
//! here, instead of once per type in every generated module.

/// The impls of a constrained string, a newtype over [`Str`](crate::Str) declared by the generated
/// code: construction through its rule (`new`, `TryFrom`, `FromStr`), reading as `&str` (`Deref`,
/// `AsRef`, `Borrow`, comparisons, `Debug`, `Display`), serde, and the runtime's traits.
/// `$rule` names the [`StrRule`](crate::StrRule) static every value must satisfy.
#[macro_export]
macro_rules! constrained_str {
    ($name:ident, $rule:path) => {
        impl $name {
            /// Checks `s` against the rule; the failure says which part of it `s` breaks.
            pub fn new(
                s: impl ::core::convert::Into<$crate::__private::Str>,
            ) -> ::core::result::Result<Self, $crate::__private::Failure> {
                let s = s.into();
                $crate::__private::str_failure(&$rule, &s)?;
                ::core::result::Result::Ok($name(s))
            }
            /// The string.
            pub fn as_str(&self) -> &str {
                &self.0
            }
            /// The string, owned.
            pub fn into_inner(self) -> $crate::__private::Str {
                self.0
            }
        }
        impl ::core::convert::TryFrom<&str> for $name {
            type Error = $crate::__private::Failure;
            fn try_from(s: &str) -> ::core::result::Result<Self, $crate::__private::Failure> {
                $name::new(s)
            }
        }
        impl ::core::convert::TryFrom<::std::string::String> for $name {
            type Error = $crate::__private::Failure;
            fn try_from(
                s: ::std::string::String,
            ) -> ::core::result::Result<Self, $crate::__private::Failure> {
                $name::new(s)
            }
        }
        impl ::core::convert::TryFrom<$crate::__private::Str> for $name {
            type Error = $crate::__private::Failure;
            fn try_from(
                s: $crate::__private::Str,
            ) -> ::core::result::Result<Self, $crate::__private::Failure> {
                $name::new(s)
            }
        }
        impl ::core::str::FromStr for $name {
            type Err = $crate::__private::Failure;
            fn from_str(s: &str) -> ::core::result::Result<Self, $crate::__private::Failure> {
                $name::new(s)
            }
        }
        impl ::core::ops::Deref for $name {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }
        impl ::core::convert::AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }
        impl ::core::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
                &self.0
            }
        }
        impl ::core::cmp::PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }
        impl ::core::cmp::PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }
        impl ::core::cmp::PartialEq<::std::string::String> for $name {
            fn eq(&self, other: &::std::string::String) -> bool {
                self.0 == other.as_str()
            }
        }
        impl ::core::cmp::PartialEq<$name> for str {
            fn eq(&self, other: &$name) -> bool {
                self == other.as_str()
            }
        }
        impl ::core::cmp::PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.as_str()
            }
        }
        impl ::core::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                ::core::fmt::Debug::fmt(self.as_str(), f)
            }
        }
        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(&self.0)
            }
        }
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<__S: $crate::__private::serde::Serializer>(
                &self,
                s: __S,
            ) -> ::core::result::Result<__S::Ok, __S::Error> {
                s.serialize_str(&self.0)
            }
        }
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                d: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                $crate::__private::serde::de::DeserializeSeed::deserialize(
                    $crate::__private::StrSeed(&$rule),
                    d,
                )
                .map($name)
            }
        }
        impl $crate::__private::Verify for $name {
            fn verify<'de, __D: $crate::__private::serde::Deserializer<'de>>(
                d: __D,
            ) -> ::core::result::Result<(), __D::Error> {
                $crate::__private::VerifySeed::verify($crate::__private::StrSeed(&$rule), d)
            }
        }
        impl $crate::__private::Probed for $name {
            fn probe(&self) -> $crate::__private::Probe<'_> {
                $crate::__private::Probe::Str(&self.0)
            }
        }
        impl $crate::__private::Check for $name {}
    };
}

/// The impls of a closed set of strings, a fieldless enum declared by the generated code: its
/// table for [`StrEnum`](crate::__private::StrEnum) (`$code` is the [`Keyword`](crate::Keyword) a refusal
/// names, `$allowed` the values in words), `as_str`, `Display`, `FromStr`, serde, and the
/// runtime's traits. Each `$json => $variant` pairs a JSON string with its variant, in schema
/// order.
#[macro_export]
macro_rules! str_enum {
    ($name:ident, $code:ident, $allowed:literal, { $($json:literal => $variant:ident),* $(,)? }) => {
        impl $name {
            /// Every value, in schema order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];
            /// The JSON string of this value.
            pub fn as_str(&self) -> &'static str {
                $crate::__private::StrEnum::json(*self)
            }
        }
        impl $crate::__private::StrEnum for $name {
            const VALUES: &'static [Self] = Self::ALL;
            const NAMES: &'static [&'static str] = &[$($json),*];
            const ALLOWED: &'static str = $allowed;
            const CODE: $crate::__private::Keyword = $crate::__private::Keyword::$code;
            fn index(self) -> usize {
                self as usize
            }
            fn from_json(s: &str) -> ::core::option::Option<Self> {
                match s {
                    $($json => ::core::option::Option::Some($name::$variant),)*
                    _ => ::core::option::Option::None,
                }
            }
        }
        impl ::core::fmt::Display for $name {
            fn fmt(&self, f: &mut ::core::fmt::Formatter<'_>) -> ::core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
        impl ::core::str::FromStr for $name {
            type Err = ::std::string::String;
            fn from_str(s: &str) -> ::core::result::Result<Self, ::std::string::String> {
                $crate::__private::parse_enum(s)
            }
        }
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                d: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                $crate::__private::decode_enum(d)
            }
        }
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<__S: $crate::__private::serde::Serializer>(
                &self,
                s: __S,
            ) -> ::core::result::Result<__S::Ok, __S::Error> {
                s.serialize_str(self.as_str())
            }
        }
        impl $crate::__private::Verify for $name {
            fn verify<'de, __D: $crate::__private::serde::Deserializer<'de>>(
                d: __D,
            ) -> ::core::result::Result<(), __D::Error> {
                $crate::__private::verify_by_decoding::<$name, __D>(d)
            }
        }
        impl $crate::__private::Probed for $name {
            fn probe(&self) -> $crate::__private::Probe<'_> {
                $crate::__private::Probe::Str(self.as_str())
            }
        }
        impl $crate::__private::Check for $name {}
    };
}

/// A builder's setter of one member (inside the builder's `impl`): `$field` takes anything that
/// converts into `$ty`, and a value that breaks its rule is kept as the builder's first failure,
/// which `build` returns. With `null $null_fn = $null`, also the setter that writes `null`
/// (`$null` is the slot's `null`: `None` for a required member, `Tri::Null` for an optional one).
#[macro_export]
macro_rules! setter {
    ($field:ident: $ty:ty = $json:literal) => {
        #[doc = concat!(" Sets `", $json, "`; a value that breaks its rule makes `build` fail.")]
        pub fn $field<__V>(mut self, v: __V) -> Self
        where
            __V: ::core::convert::TryInto<$ty>,
            $crate::__private::Failure: ::core::convert::From<__V::Error>,
        {
            $crate::__private::set(&mut self.$field, &mut self.__error, v, $json);
            self
        }
    };
    ($field:ident: $ty:ty = $json:literal, null $null_fn:ident = $null:expr) => {
        $crate::setter!($field: $ty = $json);
        #[doc = concat!(" Sets `", $json, "` to `null`.")]
        pub fn $null_fn(mut self) -> Self {
            self.$field = $null;
            self
        }
    };
}

/// The impls every generated struct shares word for word: `Deserialize` and `Verify` through its
/// [`DecodeMembers`](crate::__private::DecodeMembers) and [`VerifyMembers`](crate::__private::VerifyMembers), `Probed`
/// (an object), and its `builder()` and `member_order()`. `$builder` is the builder type the
/// generated code declares beside it.
#[macro_export]
macro_rules! object {
    ($name:ident, $builder:ident) => {
        impl $name {
            #[doc = concat!(" Builds a [`", stringify!($name), "`] member by member: constants are filled in, optional members start absent, and `build` checks the result as `validate` does.")]
            pub fn builder() -> $builder {
                <$builder as ::core::default::Default>::default()
            }
            /// The member order recorded when this value was decoded.
            pub fn member_order(&self) -> &$crate::__private::Order {
                &self.__order
            }
        }
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                d: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                $crate::__private::decode_object(d)
            }
        }
        impl $crate::__private::Verify for $name {
            fn verify<'de, __D: $crate::__private::serde::Deserializer<'de>>(
                d: __D,
            ) -> ::core::result::Result<(), __D::Error> {
                $crate::__private::verify_object::<$name, __D>(d, None)
            }
        }
        impl $crate::__private::Probed for $name {
            fn probe(&self) -> $crate::__private::Probe<'_> {
                $crate::__private::Probe::Object
            }
        }
    };
}

/// A struct's decoder ([`DecodeMembers`](crate::__private::DecodeMembers)), from its member table: a slot per
/// member, a tag member that may arrive already read (`pre`), an arm per plain member
/// (`"json" => slot @ index: seed;`, read once and its place recorded), the generated code's own
/// arms (undeclared members, selected members), the required members (`field = slot, "json";`),
/// then the value. The expansion is the loop a hand-written decoder would have, so it costs what
/// one costs; only the table is spelled out per type. Sections may be left out; the caller names
/// the locals its own tokens read (`map`, `key`, the order recorder, `value`), as macro hygiene
/// requires.
#[macro_export]
macro_rules! decode_members {
    (
        $name:ident($map:ident, $pre:ident, $key:ident, $order:ident, $value:ident);
        $(slots { $($slot:ident: $sty:ty;)* })?
        $(locals { $($locals:tt)* })?
        $(pre { $($pj:literal => $ps:ident @ $pat:literal : $pty:ty, $prel:literal;)* })?
        $(read { $($j:literal => $s:ident @ $at:literal : $seed:expr;)* })?
        $(arms { $($arms:tt)* })?
        $(required { $($rl:ident = $rs:ident, $rj:literal;)* })?
        $(unpack { $($unpack:tt)* })?
        $(value { $($field:ident $(: $init:expr)?;)* })?
        $(finish { $($finish:tt)* })?
    ) => {
        impl $crate::__private::DecodeMembers for $name {
            fn decode_members<'de, __A: $crate::__private::serde::de::MapAccess<'de>>(
                mut $map: __A,
                $pre: ::core::option::Option<(&str, &str)>,
            ) -> ::core::result::Result<$name, __A::Error> {
                $($(let mut $slot: ::core::option::Option<$sty> = ::core::option::Option::None;)*)?
                $($($locals)*)?
                let mut $order = $crate::__private::OrderRecorder::new();
                if let ::core::option::Option::Some((__k, __v)) = $pre {
                    match __k {
                        $($($pj => {
                            $order.push($pat);
                            $ps = ::core::option::Option::Some(
                                $crate::__private::pre_read::<$pty, __A::Error>(__v, $prel)?,
                            );
                        })*)?
                        _ => {
                            let _ = __v;
                        }
                    }
                }
                while let ::core::option::Option::Some($key) =
                    $crate::__private::serde::de::MapAccess::next_key::<$crate::__private::Key<'de>>(&mut $map)?
                {
                    match $key.as_str() {
                        $($($j => {
                            $crate::__private::once(&mut $map, &mut $s, $j, $seed)?;
                            $order.push($at);
                        })*)?
                        $($($arms)*)?
                    }
                }
                $($(let $rl = $crate::__private::required::<_, __A::Error>($rs, $rj)?;)*)?
                $($($unpack)*)?
                let $value = $name {
                    $($($field $(: $init)?,)*)?
                    __order: $order.finish(),
                };
                $($($finish)*)?
                ::core::result::Result::Ok($value)
            }
        }
    };
}

/// A struct's verdict-only check ([`VerifyMembers`](crate::__private::VerifyMembers)), from the same table
/// as [`decode_members!`]: slots keep `()` except where a selector or a rule needs the value
/// (`pre_kept`), plain members are checked through their verdict-only seed, required members must
/// have come (`slot, "json";`, or `slot, "json" => local;` to bind a selector by reference: the
/// slot stays readable by the rules), then the rules across members read `$view` (the kept
/// members, as `view` arms give them) and the caller's refinement runs last.
#[macro_export]
macro_rules! verify_members {
    (
        $name:ident($map:ident, $pre:ident, $refine:ident, $key:ident, $view:ident) $expecting:literal;
        $(slots { $($slot:ident: $sty:ty;)* })?
        $(locals { $($locals:tt)* })?
        $(pre { $($pj:literal => $ps:ident : $pty:ty, $prel:literal;)* })?
        $(pre_kept { $($kj:literal => $ks:ident : $kty:ty, $krel:literal;)* })?
        $(read { $($j:literal => $s:ident : $seed:expr;)* })?
        $(arms { $($arms:tt)* })?
        $(required { $($rs:ident, $rj:literal $(=> $rl:ident)?;)* })?
        $(unpack { $($unpack:tt)* })?
        $(view { $($view_arms:tt)* })?
        $(rules { $($rules:tt)* })?
    ) => {
        impl $crate::__private::VerifyMembers for $name {
            const EXPECTING: &'static str = $expecting;
            #[allow(unused_mut)]
            fn verify_members<'de, __A: $crate::__private::serde::de::MapAccess<'de>>(
                mut $map: __A,
                $pre: ::core::option::Option<(&str, &str)>,
                $refine: ::core::option::Option<$crate::__private::MemberCheck>,
            ) -> ::core::result::Result<(), __A::Error> {
                $($(let mut $slot: ::core::option::Option<$sty> = ::core::option::Option::None;)*)?
                $($($locals)*)?
                if let ::core::option::Option::Some((__k, __v)) = $pre {
                    match __k {
                        $($($pj => {
                            $crate::__private::pre_read::<$pty, __A::Error>(__v, $prel)?;
                            $ps = ::core::option::Option::Some(());
                        })*)?
                        $($($kj => {
                            $ks = ::core::option::Option::Some(
                                $crate::__private::pre_read::<$kty, __A::Error>(__v, $krel)?,
                            );
                        })*)?
                        _ => {
                            let _ = __v;
                        }
                    }
                }
                while let ::core::option::Option::Some($key) =
                    $crate::__private::serde::de::MapAccess::next_key::<$crate::__private::Key<'de>>(&mut $map)?
                {
                    match $key.as_str() {
                        $($($j => $crate::__private::once(&mut $map, &mut $s, $j, $seed)?,)*)?
                        $($($arms)*)?
                    }
                }
                $($($(let $rl =)? $crate::__private::required::<_, __A::Error>($rs.as_ref(), $rj)?;)*)?
                $($($unpack)*)?
                let __members = |__name: &str| match __name {
                    $($($view_arms)*)?
                    _ => $crate::__private::Probe::Absent,
                };
                let $view = $crate::__private::View(&__members);
                $($($rules)*)?
                if let ::core::option::Option::Some(check) = $refine {
                    check(&$view).map_err($crate::__private::Failure::into_error::<__A::Error>)?;
                }
                ::core::result::Result::Ok(())
            }
        }
    };
}

/// A struct's encoder (`Serialize`, members in their recorded order) and its reading by name
/// ([`Fields`](crate::Fields)), from its member table: each declared member's JSON name, field,
/// declaration index and presence (`required`, `optional`, or `tri` for an optional member that
/// may be `null`), and what the struct does with members it does not declare (`closed`, or kept
/// in field `$extra` as JSON, `open`, or checked, `typed`). `$count` is the number of declared
/// members; `refused` lists the members the schema declares only to refuse (`false`).
#[macro_export]
macro_rules! members {
    (
        $name:ident($count:literal) $ekind:ident $($extra:ident)?;
        $(members { $($json:literal => $f:ident @ $at:literal, $kind:ident;)* })?
        $(refused { $($never:literal;)* })?
    ) => {
        impl $crate::__private::serde::Serialize for $name {
            fn serialize<__S: $crate::__private::serde::Serializer>(
                &self,
                s: __S,
            ) -> ::core::result::Result<__S::Ok, __S::Error> {
                use $crate::__private::serde::ser::SerializeMap as _;
                let mut map = s.serialize_map(::core::option::Option::None)?;
                $crate::__private::serialize_members(
                    &mut map,
                    &self.__order,
                    $count,
                    $crate::__undeclared!(iter $ekind $($extra)?; self),
                    |i, map| match i {
                        $($($at => $crate::__member!(entry $kind; map, $json, &self.$f),)*)?
                        _ => ::core::result::Result::Ok(()),
                    },
                )?;
                map.end()
            }
        }
        impl $name {
            /// The declared members' JSON names (those the schema refuses last), which no
            /// undeclared member may take.
            #[allow(dead_code)]
            const __DECLARED: &'static [&'static str] = &[$($($json,)*)? $($($never,)*)?];
        }
        impl $crate::__private::Fields for $name {
            fn field(&self, key: &str) -> $crate::__private::Probe<'_> {
                match key {
                    $($($json => $crate::__member!(probe $kind; &self.$f),)*)?
                    other => $crate::__undeclared!(probe $ekind $($extra)?; self, other),
                }
            }
            fn json_object(
                &self,
                key: &str,
            ) -> ::core::option::Option<
                &$crate::__private::serde_json::Map<::std::string::String, $crate::__private::serde_json::Value>,
            > {
                $crate::__undeclared!(object $ekind $($extra)?; self, key, [$($($json)*)?])
            }
        }
    };
}

/// One declared member's share of [`members!`]: its entry when encoding, its probe.
#[doc(hidden)]
#[macro_export]
macro_rules! __member {
    (entry required; $map:ident, $json:literal, $v:expr) => {
        $crate::__private::serde::ser::SerializeMap::serialize_entry($map, $json, $v)
    };
    (entry optional; $map:ident, $json:literal, $v:expr) => {
        $crate::__private::optional_entry($map, $json, $v)
    };
    (entry tri; $map:ident, $json:literal, $v:expr) => {
        $crate::__private::tri_entry($map, $json, $v)
    };
    (probe optional; $v:expr) => {
        $crate::__private::probe_optional($v)
    };
    (probe $kind:ident; $v:expr) => {
        $crate::__private::Probed::probe($v)
    };
}

/// Undeclared members' share of [`members!`]: what is written after the declared members, how one
/// is read by name, and which of them are objects rules may read inside.
#[doc(hidden)]
#[macro_export]
macro_rules! __undeclared {
    (iter closed; $this:ident) => {
        ::core::iter::empty::<(&str, &$crate::__private::serde_json::Value)>()
    };
    (iter $kind:ident $extra:ident; $this:ident) => {
        $this.$extra.iter()
    };
    (probe closed; $this:ident, $key:ident) => {{
        let _ = $key;
        $crate::__private::Probe::Absent
    }};
    (probe open $extra:ident; $this:ident, $key:ident) => {
        $crate::__private::Fields::field(&$this.$extra, $key)
    };
    (probe typed $extra:ident; $this:ident, $key:ident) => {
        $this
            .$extra
            .get($key)
            .map_or($crate::__private::Probe::Absent, $crate::__private::Probed::probe)
    };
    (object open $extra:ident; $this:ident, $key:ident, [$($json:literal)*]) => {
        match $key {
            $($json => ::core::option::Option::None,)*
            other => $crate::__private::Fields::json_object(&$this.$extra, other),
        }
    };
    (object $kind:ident $($extra:ident)?; $this:ident, $key:ident, [$($json:literal)*]) => {{
        let _ = $key;
        ::core::option::Option::None
    }};
}

/// A struct's builder, from its member table: `constants` are filled in by `build`; each of
/// `members` gets a slot and a setter (`field = "json", presence: Type;`, where a member that may
/// be `null` names its null setter after its presence: `tri field_null` for an optional one,
/// `nullable field_null` for a required one, left `null` when unset); `undeclared { field: Type; }`
/// gets a setter of the members the schema does not declare. `build` returns the first
/// failure a setter kept, then calls `$infer` (the generated method that fills in selectors from
/// the members they select) when given, then checks the value as `validate` does.
#[macro_export]
macro_rules! builder {
    (
        $builder:ident => $name:ident $(, $infer:ident)?;
        $(constants { $($cf:ident: $cv:expr;)* })?
        $(members { $($f:ident = $json:literal, $kind:ident $($null:ident)?: $t:ty;)* })?
        $(undeclared { $extra:ident: $ety:ty; })?
    ) => {
        #[doc = concat!(" Builds a [`", stringify!($name), "`] member by member: constants are filled in, optional members start absent, and `build` checks the result as `validate` does.")]
        #[derive(Debug, Clone, Default)]
        #[must_use]
        pub struct $builder {
            $($($f: $crate::__builder!(slot $kind; $t),)*)?
            $($extra: $ety,)?
            __error: ::core::option::Option<$crate::__private::Failure>,
        }
        impl $builder {
            $($($crate::__builder!(setter $kind; $f: $t = $json $(, $null)?);)*)?
            $(
                /// Sets the members the schema does not declare (none by default); `build`
                /// checks them with the rest.
                pub fn $extra(mut self, members: $ety) -> Self {
                    self.$extra = members;
                    self
                }
            )?
            /// The value, or the first member that failed its rule, the first required member
            /// left unset, or the first rule the whole value breaks.
            pub fn build(mut self) -> ::core::result::Result<$name, $crate::__private::Failure> {
                if let ::core::option::Option::Some(e) = self.__error.take() {
                    return ::core::result::Result::Err(e);
                }
                $(self.$infer();)?
                let value = $name {
                    $($($cf: $cv,)*)?
                    $($($f: $crate::__builder!(init $kind; self.$f, $json),)*)?
                    $($extra: self.$extra,)?
                    __order: $crate::__private::Order::default(),
                };
                $crate::__private::Check::check(&value)?;
                ::core::result::Result::Ok(value)
            }
        }
        $crate::__splice! {
            $name;
            $(members { $($f = $json, $kind $($null)?;)* })?
            $(undeclared { $extra; })?
        }
    };
}

/// One member's share of [`builder!`]: its slot's type, its setters, its value in `build`.
#[doc(hidden)]
#[macro_export]
macro_rules! __builder {
    (slot tri; $t:ty) => { $crate::__private::Tri<$t> };
    (slot $kind:ident; $t:ty) => { ::core::option::Option<$t> };
    (setter tri; $f:ident: $t:ty = $json:literal, $null:ident) => {
        $crate::setter!($f: $t = $json, null $null = $crate::__private::Tri::Null);
    };
    (setter nullable; $f:ident: $t:ty = $json:literal, $null:ident) => {
        $crate::setter!($f: $t = $json, null $null = ::core::option::Option::None);
    };
    (setter $kind:ident; $f:ident: $t:ty = $json:literal) => {
        $crate::setter!($f: $t = $json);
    };
    (init required; $v:expr, $json:literal) => { $crate::__private::Failure::needed($v, $json)? };
    (init $kind:ident; $v:expr, $json:literal) => { $v };
}

/// A union of objects told apart by a constant member (`$tag`): `Deserialize` and the
/// verdict-only `Verify`, its `tag()`, and `From` each variant type no other variant holds. When
/// the tag comes first, the variant reads the rest of the object in the same pass (`fast`: each
/// variant's tag value, variant and struct); otherwise, or when the variant is a union of its own,
/// the object is kept, its tag found, and the variant read from what was kept (`slow`: each
/// variant's seed). `$rel` points at the tag,
/// `$unknown` says which values it takes and `$missing` that it is needed.
#[macro_export]
macro_rules! tagged {
    (
        $name:ident by $tag:literal, $rel:literal, $unknown:literal, $missing:literal;
        $(fast { $($fv:literal => $fvar:ident($fty:ty);)* })?
        $(slow { $($sv:literal => $svar:ident: $seed:expr;)* })?
        $(from { $($from_var:ident($from_ty:ty);)* })?
    ) => {
        impl $name {
            /// The value of the discriminating member.
            pub fn tag(&self) -> &'static str {
                match *self {
                    $($($name::$svar(_) => $sv,)*)?
                }
            }
        }
        $($(
            impl ::core::convert::From<$from_ty> for $name {
                fn from(v: $from_ty) -> Self {
                    $name::$from_var(v)
                }
            }
        )*)?
        impl<'de> $crate::__private::serde::Deserialize<'de> for $name {
            fn deserialize<__D: $crate::__private::serde::Deserializer<'de>>(
                d: __D,
            ) -> ::core::result::Result<Self, __D::Error> {
                struct __Visitor;
                impl<'de> $crate::__private::serde::de::Visitor<'de> for __Visitor {
                    type Value = $name;
                    fn expecting(&self, f: &mut ::core::fmt::Formatter) -> ::core::fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<__A: $crate::__private::serde::de::MapAccess<'de>>(
                        self,
                        mut map: __A,
                    ) -> ::core::result::Result<$name, __A::Error> {
                        let first = map.next_key::<$crate::__private::Key<'de>>()?;
                        if let ::core::option::Option::Some(k) = &first && k.as_str() == $tag {
                            let tag = map.next_value::<$crate::__private::Key<'de>>()?;
                            return match tag.as_str() {
                                $($($fv => <$fty as $crate::__private::DecodeMembers>::decode_members(
                                    map,
                                    ::core::option::Option::Some(($tag, $fv)),
                                )
                                .map($name::$fvar),)*)?
                                other if [$($($sv,)*)?].contains(&other) => {
                                    let raw = $crate::__private::buffer_rest_after($tag, other, &mut map)?;
                                    match other {
                                        $($($sv => $crate::__private::decode_raw::<_, __A::Error>(&raw, "", $seed).map($name::$svar),)*)?
                                        _ => ::core::result::Result::Err($crate::__private::unknown_tag($rel, other, $unknown)),
                                    }
                                }
                                other => ::core::result::Result::Err($crate::__private::unknown_tag(
                                    $rel, other, $unknown,
                                )),
                            };
                        }
                        let raw = $crate::__private::buffer_rest(first, &mut map)?;
                        let tag = $crate::__private::decode_raw::<_, __A::Error>(&raw, "", $crate::__private::TagSeed($tag))?;
                        match tag.as_deref() {
                            $($(::core::option::Option::Some($sv) => {
                                $crate::__private::decode_raw::<_, __A::Error>(&raw, "", $seed).map($name::$svar)
                            })*)?
                            ::core::option::Option::Some(other) => {
                                ::core::result::Result::Err($crate::__private::unknown_tag($rel, other, $unknown))
                            }
                            ::core::option::Option::None => ::core::result::Result::Err(
                                $crate::__private::fail($crate::__private::Keyword::OneOf, "", $missing),
                            ),
                        }
                    }
                }
                d.deserialize_map(__Visitor)
            }
        }
        impl $crate::__private::Verify for $name {
            fn verify<'de, __D: $crate::__private::serde::Deserializer<'de>>(
                d: __D,
            ) -> ::core::result::Result<(), __D::Error> {
                struct __Visitor;
                impl<'de> $crate::__private::serde::de::Visitor<'de> for __Visitor {
                    type Value = ();
                    fn expecting(&self, f: &mut ::core::fmt::Formatter) -> ::core::fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<__A: $crate::__private::serde::de::MapAccess<'de>>(
                        self,
                        mut map: __A,
                    ) -> ::core::result::Result<(), __A::Error> {
                        let first = map.next_key::<$crate::__private::Key<'de>>()?;
                        if let ::core::option::Option::Some(k) = &first && k.as_str() == $tag {
                            let tag = map.next_value::<$crate::__private::Key<'de>>()?;
                            return match tag.as_str() {
                                $($($fv => <$fty as $crate::__private::VerifyMembers>::verify_members(
                                    map,
                                    ::core::option::Option::Some(($tag, $fv)),
                                    ::core::option::Option::None,
                                ),)*)?
                                other if [$($($sv,)*)?].contains(&other) => {
                                    let raw = $crate::__private::buffer_rest_after($tag, other, &mut map)?;
                                    match other {
                                        $($($sv => $crate::__private::verify_raw::<_, __A::Error>(&raw, $seed),)*)?
                                        _ => ::core::result::Result::Err($crate::__private::unknown_tag($rel, other, $unknown)),
                                    }
                                }
                                other => ::core::result::Result::Err($crate::__private::unknown_tag(
                                    $rel, other, $unknown,
                                )),
                            };
                        }
                        let raw = $crate::__private::buffer_rest(first, &mut map)?;
                        let tag = $crate::__private::decode_raw::<_, __A::Error>(&raw, "", $crate::__private::TagSeed($tag))?;
                        match tag.as_deref() {
                            $($(::core::option::Option::Some($sv) => {
                                $crate::__private::verify_raw::<_, __A::Error>(&raw, $seed)
                            })*)?
                            ::core::option::Option::Some(other) => {
                                ::core::result::Result::Err($crate::__private::unknown_tag($rel, other, $unknown))
                            }
                            ::core::option::Option::None => ::core::result::Result::Err(
                                $crate::__private::fail($crate::__private::Keyword::OneOf, "", $missing),
                            ),
                        }
                    }
                }
                d.deserialize_map(__Visitor)
            }
        }
    };
}
