//! Functions that fail with plain text: `Result<_, String>`. Text loses
//! the diagnostic code a designer's tools match on, so the rooms below the
//! faces fail with a [`Diagnostic`](rpsdsl::diagnostic::Diagnostic) or an
//! error type that carries one (`agents::AgentError`).

use syn::visit::{self, Visit};

use super::source::{SourceFile, is_test};

/// A function whose error is plain text: the file and the function's name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct PlainError {
    pub file: String,
    pub function: String,
}

/// Every function of `files` outside test code whose signature returns
/// `Result<_, String>`.
pub fn plain_errors(files: &[SourceFile]) -> Vec<PlainError> {
    let mut found = vec![];
    for file in files {
        let mut finder = Finder {
            file: &file.path,
            found: &mut found,
        };
        finder.visit_file(&file.ast);
    }
    found
}

struct Finder<'a> {
    file: &'a str,
    found: &'a mut Vec<PlainError>,
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_mod(&mut self, module: &'ast syn::ItemMod) {
        if !is_test(&module.attrs) {
            visit::visit_item_mod(self, module);
        }
    }

    fn visit_item_fn(&mut self, function: &'ast syn::ItemFn) {
        if !is_test(&function.attrs) {
            visit::visit_item_fn(self, function);
        }
    }

    fn visit_signature(&mut self, signature: &'ast syn::Signature) {
        if let syn::ReturnType::Type(_, ty) = &signature.output
            && fails_with_text(ty)
        {
            self.found.push(PlainError {
                file: self.file.to_string(),
                function: signature.ident.to_string(),
            });
        }
        visit::visit_signature(self, signature);
    }
}

/// Whether `ty` is `Result<_, String>` (any path to `Result`).
fn fails_with_text(ty: &syn::Type) -> bool {
    let syn::Type::Path(path) = ty else {
        return false;
    };
    let Some(last) = path.path.segments.last() else {
        return false;
    };
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return false;
    };
    let types: Vec<&syn::Type> = args
        .args
        .iter()
        .filter_map(|a| match a {
            syn::GenericArgument::Type(t) => Some(t),
            _ => None,
        })
        .collect();
    last.ident == "Result"
        && matches!(types.as_slice(), [_, syn::Type::Path(error)]
            if error.path.segments.last().is_some_and(|s| s.ident == "String"))
}
