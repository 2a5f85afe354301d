//! The rooms of the crate and who imports whom.

use std::collections::{BTreeMap, BTreeSet};

use super::source::sources;

/// The rooms and the edges between them.
pub struct Rooms {
    /// The modules `src/lib.rs` and the core's `src/core/lib.rs` declare.
    pub names: BTreeSet<String>,
    /// `(from, to)` to the place of the first import that makes the edge.
    pub edges: BTreeMap<(String, String), String>,
}

impl Rooms {
    pub fn read() -> Rooms {
        let sources = sources();
        // The root crate's modules, and the core's, which it re-exports.
        let names: BTreeSet<String> = ["src/lib.rs", "src/core/lib.rs"]
            .iter()
            .flat_map(|root| {
                let lib = sources
                    .iter()
                    .find(|f| f.path == *root)
                    .unwrap_or_else(|| panic!("{root} is gone"));
                lib.ast.items.iter().filter_map(|item| match item {
                    syn::Item::Mod(m) => Some(m.ident.to_string()),
                    _ => None,
                })
            })
            .collect();
        let mut edges = BTreeMap::new();
        // A module declared `#[cfg(test)] mod tests;` is test code in a
        // file of its own: its imports are the tests', not the room's.
        let test_modules: BTreeSet<String> = sources.iter().flat_map(|f| f.test_modules()).collect();
        for file in &sources {
            let Some(from) = file.room() else { continue };
            if test_modules.contains(&file.module_path()) {
                continue;
            }
            for (to, line) in file.imports() {
                if to != from && names.contains(&to) {
                    edges
                        .entry((from.clone(), to))
                        .or_insert_with(|| format!("{}:{line}", file.path));
                }
            }
        }
        Rooms { names, edges }
    }

    fn after(&self, room: &str) -> impl Iterator<Item = &String> {
        self.edges
            .keys()
            .filter(move |(from, _)| from == room)
            .map(|(_, to)| to)
    }
}

/// Each cycle of imports between rooms, once, as its edges in order: one
/// per strongly connected group of rooms, from its first room by name.
pub fn cycles(rooms: &Rooms) -> Vec<Vec<(String, String)>> {
    let mut found = vec![];
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for start in &rooms.names {
        if seen.contains(start) {
            continue;
        }
        if let Some(path) = path_back(rooms, start) {
            seen.extend(path.iter().map(|(from, _)| from.clone()));
            found.push(path);
        }
    }
    found
}

/// The shortest chain of imports from `start` back to itself, if any
/// (breadth first, so the cycle shown is the tightest).
fn path_back(rooms: &Rooms, start: &str) -> Option<Vec<(String, String)>> {
    let mut came_from: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start.to_string()]);
    while let Some(room) = queue.pop_front() {
        for next in rooms.after(&room) {
            if next == start {
                let mut path = vec![(room.clone(), start.to_string())];
                let mut at = room.clone();
                while at != start {
                    let before = came_from[&at].clone();
                    path.push((before.clone(), at));
                    at = before;
                }
                path.reverse();
                return Some(path);
            }
            if !came_from.contains_key(next) {
                came_from.insert(next.clone(), room.clone());
                queue.push_back(next.clone());
            }
        }
    }
    None
}
