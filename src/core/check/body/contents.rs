//! Which zones' contents the rules read.
//!
//! A discard pile the rules only move cards onto and count has contents
//! that no rule ever reads: which cards lie there changes nothing the rules
//! do, only how many. The glance, a lossy abstraction a solver may key
//! situations by (`engine::glance`), keeps such a zone by its size.
//!
//! Every zone named in the rules reads its contents, except where it is
//! named to be counted (`size of`), to receive pieces (the target of a
//! `move`, `move all of` or `deal`, a zone shuffled), or to give its pieces
//! to another zone (the source of `move all of` or `deal`): pieces given to
//! a zone whose contents are read are read too. A zone kept in a variable
//! or passed to a procedure counts as read, so the reading errs towards
//! keeping.

use super::Compiler;
use super::marks::ZoneUse;

impl Compiler {
    /// Compiles `zone` for the use `how`: see the module's doc.
    pub(super) fn zone_for(&mut self, zone: &crate::syntax::ast::Expr, how: ZoneUse) {
        self.contents.next_use = Some(how);
        self.expect(zone, &super::Ty::Zone);
        // A zone that named no family plainly (a variable) leaves it unused.
        self.contents.next_use = None;
    }

    /// How the zone about to be named is used; the next one named is read.
    pub(super) fn take_zone_use(&mut self) -> Option<ZoneUse> {
        self.contents.next_use.take()
    }

    /// Notes that family `family` is named, used as `how`.
    pub(super) fn names_family(&mut self, family: u16, how: Option<ZoneUse>) {
        self.contents.named.push((family, how));
    }

    /// Marks, on the definition, the families whose contents the rules read.
    pub(super) fn settle_content_reads(&mut self) {
        let mut read = vec![false; self.def.families.len()];
        for &(family, how) in &self.contents.named {
            if how.is_none() {
                read[family as usize] = true;
            }
        }
        // Pieces given to a zone that is read are read: to a fixed point.
        loop {
            let mut changed = false;
            for &(family, how) in &self.contents.named {
                if let Some(ZoneUse::Source(to)) = how
                    && !read[family as usize]
                    && to.is_none_or(|to| read[to as usize])
                {
                    read[family as usize] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        for (family, read) in self.def.families.iter_mut().zip(read) {
            family.contents_read = read;
        }
    }
}
