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
                s: impl ::core::convert::Into<$crate::Str>,
            ) -> ::core::result::Result<Self, $crate::Failure> {
                let s = s.into();
                $crate::str_failure(&$rule, &s)?;
                ::core::result::Result::Ok($name(s))
            }
            /// The string.
            pub fn as_str(&self) -> &str {
                &self.0
            }
            /// The string, owned.
            pub fn into_inner(self) -> $crate::Str {
                self.0
            }
        }
        impl ::core::convert::TryFrom<&str> for $name {
            type Error = $crate::Failure;
            fn try_from(s: &str) -> ::core::result::Result<Self, $crate::Failure> {
                $name::new(s)
            }
        }
        impl ::core::convert::TryFrom<::std::string::String> for $name {
            type Error = $crate::Failure;
            fn try_from(s: ::std::string::String) -> ::core::result::Result<Self, $crate::Failure> {
                $name::new(s)
            }
        }
        impl ::core::convert::TryFrom<$crate::Str> for $name {
            type Error = $crate::Failure;
            fn try_from(s: $crate::Str) -> ::core::result::Result<Self, $crate::Failure> {
                $name::new(s)
            }
        }
        impl ::core::str::FromStr for $name {
            type Err = $crate::Failure;
            fn from_str(s: &str) -> ::core::result::Result<Self, $crate::Failure> {
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
        impl $crate::serde::Serialize for $name {
            fn serialize<S: $crate::serde::Serializer>(
                &self,
                s: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                s.serialize_str(&self.0)
            }
        }
        impl<'de> $crate::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::serde::Deserializer<'de>>(
                d: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $crate::serde::de::DeserializeSeed::deserialize($crate::StrSeed(&$rule), d)
                    .map($name)
            }
        }
        impl $crate::Verify for $name {
            fn verify<'de, D: $crate::serde::Deserializer<'de>>(
                d: D,
            ) -> ::core::result::Result<(), D::Error> {
                $crate::VerifySeed::verify($crate::StrSeed(&$rule), d)
            }
        }
        impl $crate::Probed for $name {
            fn probe(&self) -> $crate::Probe<'_> {
                $crate::Probe::Str(&self.0)
            }
        }
        impl $crate::Check for $name {}
    };
}

/// The impls of a closed set of strings, a fieldless enum declared by the generated code: its
/// table for [`StrEnum`](crate::StrEnum) (`$code` is the [`Keyword`](crate::Keyword) a refusal
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
                $crate::StrEnum::json(*self)
            }
        }
        impl $crate::StrEnum for $name {
            const VALUES: &'static [Self] = Self::ALL;
            const NAMES: &'static [&'static str] = &[$($json),*];
            const ALLOWED: &'static str = $allowed;
            const CODE: $crate::Keyword = $crate::Keyword::$code;
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
                $crate::parse_enum(s)
            }
        }
        impl<'de> $crate::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::serde::Deserializer<'de>>(
                d: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $crate::decode_enum(d)
            }
        }
        impl $crate::serde::Serialize for $name {
            fn serialize<S: $crate::serde::Serializer>(
                &self,
                s: S,
            ) -> ::core::result::Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }
        impl $crate::Verify for $name {
            fn verify<'de, D: $crate::serde::Deserializer<'de>>(
                d: D,
            ) -> ::core::result::Result<(), D::Error> {
                $crate::verify_by_decoding::<$name, D>(d)
            }
        }
        impl $crate::Probed for $name {
            fn probe(&self) -> $crate::Probe<'_> {
                $crate::Probe::Str(self.as_str())
            }
        }
        impl $crate::Check for $name {}
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
        pub fn $field<V>(mut self, v: V) -> Self
        where
            V: ::core::convert::TryInto<$ty>,
            $crate::Failure: ::core::convert::From<V::Error>,
        {
            $crate::set(&mut self.$field, &mut self.__error, v, $json);
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
/// [`DecodeMembers`](crate::DecodeMembers) and [`VerifyMembers`](crate::VerifyMembers), `Probed`
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
            pub fn member_order(&self) -> &$crate::Order {
                &self.__order
            }
        }
        impl<'de> $crate::serde::Deserialize<'de> for $name {
            fn deserialize<D: $crate::serde::Deserializer<'de>>(
                d: D,
            ) -> ::core::result::Result<Self, D::Error> {
                $crate::decode_object(d)
            }
        }
        impl $crate::Verify for $name {
            fn verify<'de, D: $crate::serde::Deserializer<'de>>(
                d: D,
            ) -> ::core::result::Result<(), D::Error> {
                $crate::verify_object::<$name, D>(d, None)
            }
        }
        impl $crate::Probed for $name {
            fn probe(&self) -> $crate::Probe<'_> {
                $crate::Probe::Object
            }
        }
    };
}
