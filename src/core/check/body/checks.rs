//! Checks over the whole definition once every body is compiled: where
//! decisions are asked, and which declarations the rules never use.

use super::Compiler;
use crate::check::types::Symbol;
use crate::diagnostic::{Code, Diagnostic, Span};
use crate::syntax::ast::Item;

impl Compiler {
    pub(super) fn check_decision_contexts(&mut self) {
        let n = self.def.procs.len();
        // Where each procedure asks, directly or through a call (the call's span).
        let mut asks: Vec<Option<Span>> = self.proc_asks.clone();
        asks.resize(n, None);
        loop {
            let mut changed = false;
            for p in 0..n {
                if asks[p].is_none()
                    && let Some((_, span)) = self.proc_calls[p].iter().find(|(c, _)| asks[*c as usize].is_some())
                {
                    asks[p] = Some(*span);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (proc, span, what) in std::mem::take(&mut self.no_decisions) {
            if let Some(at) = asks[proc as usize] {
                self.error(
                    Diagnostic::error(
                        Code::DecisionNotAllowed,
                        format!("{what} cannot ask a player to decide"),
                    )
                    .label(at, "this asks for a decision, directly or through a procedure")
                    .label(span, format!("in {what}"))
                    .help(
                        "triggers, scoring and starting values run between decisions; move the decision into the flow",
                    ),
                );
            }
        }
    }

    /// Whether the rules refer to `name` beyond declaring it.
    fn used_by_rules(&self, name: &str) -> bool {
        self.globals.uses.get(name).copied().unwrap_or(0) > self.declared_uses.get(name).copied().unwrap_or(0)
    }

    pub(super) fn warn_unused(&mut self, items: &[Item]) {
        let hook_text: String = items
            .iter()
            .filter_map(|i| match i {
                Item::Hook(h) => Some(h.body.as_str()),
                _ => None,
            })
            .collect();
        let mut unused = vec![];
        for (name, (symbol, span)) in &self.globals.names {
            let what = match symbol {
                Symbol::PieceType(_) => "piece type",
                Symbol::Option(_) => "option",
                Symbol::Var(v) if self.def.vars[*v as usize].constant => "constant",
                Symbol::Var(_) => "variable",
                Symbol::Group(_) => "group",
                Symbol::Hook(_) => "hook",
                Symbol::Proc(_) => "procedure",
                _ => continue,
            };
            let mut used = self.used_by_rules(name)
                || hook_text.contains(&format!("\"{name}\""))
                || self.globals.read_by_shape.contains(name);
            if let Symbol::PieceType(ty) = symbol {
                // Pieces are used when the rules touch the zone they start in,
                // or a group that holds their type.
                let homes = self.def.pieces.iter().filter(|p| p.ty == *ty).map(|p| p.home);
                let families: Vec<String> = homes
                    .map(|z| {
                        self.def.families[self.def.zones[z as usize].family as usize]
                            .name
                            .clone()
                    })
                    .collect();
                used |= families
                    .iter()
                    .any(|f| self.used_by_rules(f) || hook_text.contains(&format!("\"{f}\"")));
                used |= self
                    .def
                    .groups
                    .iter()
                    .any(|g| g.types.contains(ty) && self.used_by_rules(&g.name));
            }
            // A file brought in with `use` is a library: a game need not use all of it.
            if !used && span.file == 0 {
                unused.push((*span, name.clone(), what));
            }
        }
        unused.sort_by_key(|(span, _, _)| (span.file, span.start));
        for (span, name, what) in unused {
            self.diags.push(
                Diagnostic::warning(Code::Unused, format!("{what} `{name}` is never used"))
                    .label(span, "declared here")
                    .help("remove it, or use it in the rules"),
            );
        }
    }
}
