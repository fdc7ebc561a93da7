//! Values built in code from the members of two others, for testing a generator (feature
//! `splice`, off by default): the schema-mutation tests recombine the members of two decoded
//! values through a struct's builder, then ask an independent validator about the JSON the same
//! choice of members makes. A typed value must exist exactly when the schema accepts that JSON,
//! however it was made; these values are how "made in code" is tried on every generated struct
//! without per-type test code.
//!
//! Without the feature, [`__splice!`](crate::__splice) expands to nothing, so generated code costs
//! the same as before.

/// A struct whose builder can take each member from one of two values.
pub trait Splice: Sized {
    /// The JSON names of the members the builder sets, in the order `pick` numbers them; the
    /// undeclared members are number `MEMBERS.len()`.
    const MEMBERS: &'static [&'static str];
    /// Builds a value whose member `i` is `from[pick(i)]`'s (present, `null` or absent as there),
    /// and whose undeclared members are `from[pick(MEMBERS.len())]`'s; `build` checks it.
    fn splice(from: [&Self; 2], pick: &dyn Fn(usize) -> usize) -> Result<Self, crate::Failure>;
}

/// The [`Splice`] impl of a struct, from the same table as [`builder!`](crate::builder).
#[doc(hidden)]
#[macro_export]
macro_rules! __splice {
    (
        $name:ident;
        $(members { $($f:ident = $json:literal, $kind:ident $($null:ident)?;)* })?
        $(undeclared { $extra:ident; })?
    ) => {
        impl $crate::splice::Splice for $name {
            const MEMBERS: &'static [&'static str] = &[$($($json,)*)?];
            #[allow(unused_mut, unused_variables, unused_assignments)]
            fn splice(
                from: [&Self; 2],
                pick: &dyn Fn(usize) -> usize,
            ) -> ::core::result::Result<Self, $crate::__private::Failure> {
                let mut b = $name::builder();
                let mut i = 0usize;
                $($(
                    let src = from[pick(i)];
                    b = $crate::__splice!(@set $kind; b, src, $f $(, $null)?);
                    i += 1;
                )*)?
                $(b = b.$extra(from[pick(i)].$extra.clone());)?
                b.build()
            }
        }
    };
    (@set required; $b:ident, $src:ident, $f:ident) => {
        $b.$f($src.$f.clone())
    };
    (@set optional; $b:ident, $src:ident, $f:ident) => {
        match &$src.$f {
            ::core::option::Option::Some(v) => $b.$f(v.clone()),
            ::core::option::Option::None => $b,
        }
    };
    (@set nullable; $b:ident, $src:ident, $f:ident, $null:ident) => {
        match &$src.$f {
            ::core::option::Option::Some(v) => $b.$f(v.clone()),
            ::core::option::Option::None => $b.$null(),
        }
    };
    (@set tri; $b:ident, $src:ident, $f:ident, $null:ident) => {
        match &$src.$f {
            $crate::__private::Tri::Value(v) => $b.$f(v.clone()),
            $crate::__private::Tri::Null => $b.$null(),
            $crate::__private::Tri::Absent => $b,
        }
    };
}
