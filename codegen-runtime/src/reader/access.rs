//! The serde side of the reader: enums written as strings or objects, the items and members of
//! arrays and objects, member names read as other types, the `Deserializer` itself and
//! serde_json's `RawValue`.

use super::*;

/// An enum written as a string: a unit variant.
struct UnitVariant<'r, 'de>(&'r mut Reader<'de>);

impl<'de> de::EnumAccess<'de> for UnitVariant<'_, 'de> {
    type Error = Refused;
    type Variant = UnitOnly;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, UnitOnly)> {
        Ok((seed.deserialize(&mut *self.0)?, UnitOnly))
    }
}

/// The content of a unit variant: none.
struct UnitOnly;

impl<'de> de::VariantAccess<'de> for UnitOnly {
    type Error = Refused;

    fn unit_variant(self) -> Result<()> {
        Ok(())
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, _seed: S) -> Result<S::Value> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"newtype variant",
        ))
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _v: V) -> Result<V::Value> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"tuple variant",
        ))
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _v: V,
    ) -> Result<V::Value> {
        Err(de::Error::invalid_type(
            Unexpected::UnitVariant,
            &"struct variant",
        ))
    }
}

/// An enum written as an object of one member: the variant's name, then its content.
struct Variant<'r, 'de>(&'r mut Reader<'de>);

impl<'de, 'r> de::EnumAccess<'de> for Variant<'r, 'de> {
    type Error = Refused;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self)> {
        if self.0.ws() != Some(b'"') {
            return Err(de::Error::custom(
                "an enum written as an object has exactly one member",
            ));
        }
        let variant = seed.deserialize(&mut *self.0)?;
        self.0.colon()?;
        Ok((variant, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = Refused;

    fn unit_variant(self) -> Result<()> {
        de::Deserialize::deserialize(&mut *self.0)
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value> {
        seed.deserialize(&mut *self.0)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value> {
        de::Deserializer::deserialize_seq(&mut *self.0, v)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        de::Deserializer::deserialize_struct(&mut *self.0, "", fields, v)
    }
}

/// The items of an array or the members of an object, read one by one.
pub(super) struct Members<'r, 'de> {
    r: &'r mut Reader<'de>,
    first: bool,
    /// Where the items or members start (after the bracket), to find a refused one again.
    start: usize,
}

impl<'r, 'de> Members<'r, 'de> {
    pub(super) fn new(r: &'r mut Reader<'de>) -> Self {
        let start = r.at;
        Members {
            r,
            first: true,
            start,
        }
    }

    /// The step to the item (or, `keyed`, the member) a refusal stopped in: the container read
    /// again from its start up to where the reader stopped. Only a refusal pays for it; reading
    /// keeps no count.
    #[cold]
    #[inline(never)]
    fn step(&self, keyed: bool) -> Step {
        let stopped = self.r.at;
        let text = self.r.text;
        let start = self.start;
        quietly(|| {
            let mut again = Reader::new(text);
            again.at = start;
            let mut index = 0;
            loop {
                if again.ws() == Some(b',') {
                    again.at += 1;
                    again.ws();
                }
                let mut key = None;
                if keyed {
                    key = Some(
                        again
                            .string()
                            .map(|s| s.as_str().to_owned())
                            .unwrap_or_default(),
                    );
                    if again.colon().is_err() {
                        break;
                    }
                }
                if again.pass().is_err() || stopped <= again.at {
                    return match key {
                        Some(k) => Step::Key(k),
                        None => Step::Index(index),
                    };
                }
                index += 1;
            }
            Step::Index(index)
        })
    }
}

/// Runs `f` without touching the record of the refusal being reported (its reads may refuse).
fn quietly<T>(f: impl FnOnce() -> T) -> T {
    let saved = WHY.with(|why| std::mem::take(&mut *why.borrow_mut()));
    let out = f();
    WHY.with(|why| *why.borrow_mut() = saved);
    out
}

impl<'de> de::SeqAccess<'de> for Members<'_, 'de> {
    type Error = Refused;

    #[inline]
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        match self.r.ws() {
            Some(b']') => return Ok(None),
            Some(_) if self.first => self.first = false,
            Some(b',') => {
                self.r.at += 1;
                match self.r.ws() {
                    Some(b']') | None => return Err(Refused::syntax()),
                    Some(_) => {}
                }
            }
            _ => return Err(Refused::syntax()),
        }
        match seed.deserialize(&mut *self.r) {
            Ok(item) => Ok(Some(item)),
            Err(e) => Err(e.within(self.step(false))),
        }
    }
}

impl<'de> de::MapAccess<'de> for Members<'_, 'de> {
    type Error = Refused;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        match self.r.ws() {
            Some(b'}') => return Ok(None),
            Some(b'"') if self.first => self.first = false,
            Some(b',') if !self.first => {
                self.r.at += 1;
                if self.r.ws() != Some(b'"') {
                    return Err(Refused::syntax());
                }
            }
            _ => return Err(Refused::syntax()),
        }
        seed.deserialize(Key(&mut *self.r)).map(Some)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        self.r.colon()?;
        match seed.deserialize(&mut *self.r) {
            Ok(value) => Ok(value),
            Err(e) => Err(e.within(self.step(true))),
        }
    }
}

/// The numbers a value may be asked for, each read as serde_json reads one.
macro_rules! numbers {
    ($($method:ident)*) => {
        $(#[inline]
        fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
            match self.ws() {
                Some(b'-' | b'0'..=b'9') => self.number(v),
                _ => Err(self.mismatch(v)),
            }
        })*
    };
}

/// Member names asked for as numbers.
macro_rules! key_numbers {
    ($($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
            self.number(v)
        })*
    };
}

/// A member name, at its opening quote.
struct Key<'r, 'de>(&'r mut Reader<'de>);

impl<'de> de::Deserializer<'de> for Key<'_, 'de> {
    type Error = Refused;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.0.string()?.visit(v)
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        v.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        v.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        char str string unit unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }

    key_numbers!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_i128
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64 deserialize_u128
        deserialize_f32 deserialize_f64);

    /// `"true"` and `"false"` as booleans, as serde_json reads a name asked for as one.
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let r = self.0;
        for (word, b) in [(&b"\"true\""[..], true), (&b"\"false\""[..], false)] {
            if r.bytes()[r.at..].starts_with(word) {
                r.at += word.len();
                return v.visit_bool(b);
            }
        }
        let at = r.at;
        let name = r.string()?.as_str().to_owned();
        r.at = at;
        Err(de::Error::invalid_type(Unexpected::Str(&name), &v))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        v.visit_enum(UnitVariant(self.0))
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.0
            .by_serde_json(|de| de::Deserializer::deserialize_bytes(de, v))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.0
            .by_serde_json(|de| de::Deserializer::deserialize_bytes(de, v))
    }
}

impl<'de> Key<'_, 'de> {
    /// The name read as a number, as serde_json reads `"12"` asked for as an integer: the
    /// number must fill the quotes.
    fn number<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        let r = self.0;
        let start = r.at + 1;
        if !matches!(r.bytes().get(start), Some(b'-' | b'0'..=b'9')) {
            return Err(de::Error::custom("expected a member name that is a number"));
        }
        r.at = start;
        let value = r.number(v)?;
        if r.bytes().get(r.at) != Some(&b'"') {
            return Err(de::Error::custom("expected a member name that is a number"));
        }
        r.at += 1;
        Ok(value)
    }
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Refused;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.ws() {
            Some(b'n') => {
                self.literal(b"null")?;
                v.visit_unit()
            }
            Some(b't') => {
                self.literal(b"true")?;
                v.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                v.visit_bool(false)
            }
            Some(b'-' | b'0'..=b'9') => self.number(v),
            Some(b'"') => self.string()?.visit(v),
            Some(b'[') => self.seq(v),
            Some(b'{') => self.map(v),
            _ => Err(Refused::syntax()),
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.ws() {
            Some(b't' | b'f') => self.deserialize_any(v),
            _ => Err(self.mismatch(v)),
        }
    }

    numbers!(deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_u8
        deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f32 deserialize_f64);

    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }

    #[inline]
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.ws() {
            Some(b'"') => self.string()?.visit(v),
            _ => Err(self.mismatch(v)),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.by_serde_json(|de| de::Deserializer::deserialize_bytes(de, v))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.by_serde_json(|de| de::Deserializer::deserialize_bytes(de, v))
    }

    fn deserialize_i128<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.by_serde_json(|de| de::Deserializer::deserialize_i128(de, v))
    }

    fn deserialize_u128<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.by_serde_json(|de| de::Deserializer::deserialize_u128(de, v))
    }

    /// An enum as serde_json reads one: a string names a unit variant, an object of one member
    /// names a variant and holds its content.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        match self.ws() {
            Some(b'"') => v.visit_enum(UnitVariant(self)),
            Some(b'{') => {
                self.enter()?;
                let value = v.visit_enum(Variant(&mut *self))?;
                self.depth += 1;
                if self.ws() != Some(b'}') {
                    return Err(de::Error::custom(
                        "an enum written as an object has exactly one member",
                    ));
                }
                self.at += 1;
                Ok(value)
            }
            _ => Err(self.mismatch(v)),
        }
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        if self.ws() == Some(b'n') {
            self.literal(b"null")?;
            v.visit_none()
        } else {
            v.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.ws() {
            Some(b'n') => self.deserialize_any(v),
            _ => Err(self.mismatch(v)),
        }
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_unit(v)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        v: V,
    ) -> Result<V::Value> {
        if name != RAW_VALUE {
            return v.visit_newtype_struct(self);
        }
        self.ws();
        let start = self.at;
        self.pass()?;
        v.visit_map(Raw(Some(&self.text[start..self.at])))
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.ws() {
            Some(b'[') => self.seq(v),
            _ => Err(self.mismatch(v)),
        }
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value> {
        self.deserialize_seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        v: V,
    ) -> Result<V::Value> {
        self.deserialize_seq(v)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        match self.ws() {
            Some(b'{') => self.map(v),
            _ => Err(self.mismatch(v)),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value> {
        match self.ws() {
            Some(b'[') => self.seq(v),
            Some(b'{') => self.map(v),
            _ => Err(self.mismatch(v)),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.deserialize_str(v)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value> {
        self.pass()?;
        v.visit_unit()
    }
}

/// The raw text of a value, handed to serde_json's `RawValue` as serde_json hands it: a map of
/// one member named [`RAW_VALUE`] whose value is the text.
struct Raw<'de>(Option<&'de str>);

impl<'de> de::MapAccess<'de> for Raw<'de> {
    type Error = Refused;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if self.0.is_none() {
            return Ok(None);
        }
        seed.deserialize(de::value::BorrowedStrDeserializer::new(RAW_VALUE))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        let raw = self.0.take().ok_or_else(Refused::syntax)?;
        seed.deserialize(de::value::BorrowedStrDeserializer::new(raw))
    }
}
