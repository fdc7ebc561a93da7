//! The schema program of the checked types, written as the Rust expression that builds it: the
//! generated code holds the program as data, and nothing is parsed when it first runs. The
//! runtime writes the expression ([`Literal`]), each rule by its own room's data, so a keyword
//! the checker gains needs nothing here.

use proc_macro2::TokenStream;
use prp_codegen_runtime::eval::{Literal, Program};
use quote::quote;

/// The block that builds `p` (with the runtime in scope as `rt`): the names it uses are imported
/// in the block, so that the data reads as data.
pub(super) fn program(p: &Program) -> TokenStream {
    let data: TokenStream = p
        .to_literal()
        .parse()
        .expect("the runtime writes a Rust expression");
    quote! {
        {
            #[allow(unused_imports)]
            use rt::eval::{FormatTest, JsonType, Node, Program, Regex, Rule, float};
            #[allow(unused_imports)]
            use rt::serde_json::{Map, Number, Value};
            #[allow(unused_imports)]
            use ::core::option::Option::{None, Some};
            use ::std::vec::Vec;
            #data
        }
    }
}
